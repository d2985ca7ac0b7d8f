import { sentences, words } from './text.ts';

const STOP_WORDS = new Set(
  ('a an and are as at be been but by can could did do does for from had has have he her his how i if in into is it its '
    + 'just me more most my no not now of on one only or our out over so some such than that the their them then there '
    + 'these they this those to too up us very was we were what when where which while who why will with would you your')
    .split(' '),
);
const MAX_SENTENCES = 400;

/** Words that carry meaning, lightly stemmed so "tickets" meets "ticket". */
export function contentWords(text: string): string[] {
  return words(text)
    .filter((w) => w.length > 2 && !STOP_WORDS.has(w))
    .map((w) => (w.length > 4 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w));
}

/**
 * The sentences that carry a text, at most `count`, in their original order. A sentence
 * counts by the words it shares with the rest of the text and with the intent (or a
 * requested focus); the opening sentence, where writers put the point, gets a lift.
 * When most sentences share a topic, the ones off it are left out.
 */
export function keySentences(text: string | null, count: number, boost: string[] = []): string[] {
  if (!text || count < 1) return [];
  const all = [...new Set(sentences(text))].slice(0, MAX_SENTENCES);
  const vocabulary = all.map((sentence) => [...new Set(contentWords(sentence))]);
  const frequency = new Map<string, number>();
  for (const unique of vocabulary) for (const w of unique) frequency.set(w, (frequency.get(w) ?? 0) + 1);
  const boosted = new Set(boost.flatMap(contentWords));

  const scored = all.map((sentence, position) => {
    const unique = vocabulary[position] ?? [];
    const shared = unique.reduce((sum, w) => sum + (frequency.get(w) ?? 1) - 1, 0) / Math.sqrt(unique.length + 1);
    const relevance = shared + unique.filter((w) => boosted.has(w)).length * 2;
    const lift = (position === 0 ? 1 : 0) + (/\d/.test(sentence) ? 0.5 : 0);
    return { sentence, position, relevance, score: relevance + lift };
  });
  const onTopic = scored.filter((s) => s.relevance > 0).length * 2 >= scored.length;
  return scored
    .filter((s) => !onTopic || s.relevance > 0 || s.position === 0)
    .sort((a, b) => b.score - a.score || a.position - b.position)
    .slice(0, count)
    .sort((a, b) => a.position - b.position)
    .map((s) => s.sentence);
}

/** True when a text talks about a term: at least half of the term's words appear in it. */
export function talksAbout(text: string, term: string): boolean {
  const wanted = contentWords(term).length ? contentWords(term) : words(term);
  if (!wanted.length) return false;
  const present = new Set([...words(text), ...contentWords(text)]);
  return wanted.filter((w) => present.has(w)).length * 2 >= wanted.length;
}
