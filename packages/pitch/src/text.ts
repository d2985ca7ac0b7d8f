/**
 * Text helpers. Lengths are counted the way the contracts' schemas count them: in Unicode
 * code points. Cuts fall on grapheme boundaries, so neither a surrogate pair nor an emoji
 * sequence is ever split.
 */
import { spokenWords as words } from '@vp/contracts';

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
const ELLIPSIS = '…';

export function codePointLength(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
    count++;
  }
  return count;
}

/** Replaces lone surrogates and drops control characters other than tab and newline. */
export function clean(text: string): string {
  return text.replace(/\p{Cs}/gu, '\uFFFD').replace(/[\u0000-\u0008\u000B-\u001F\u007F]/g, (c) => (c === '\r' ? '' : ' '));
}

/** One line of text: whitespace collapsed, trimmed. */
export function oneLine(text: string): string {
  return clean(text).replace(/\s+/g, ' ').trim();
}

/** At most `max` characters; a cut text ends with an ellipsis, at a word boundary when one is near. */
export function clip(text: string, max: number): string {
  if (codePointLength(text) <= max) return text;
  if (max < 1) return '';
  const budget = max - 1;
  let windowEnd = Math.min(text.length, budget * 2 + 64);
  if (windowEnd < text.length && (text.charCodeAt(windowEnd - 1) & 0xfc00) === 0xd800) windowEnd--;
  const window = text.slice(0, windowEnd);
  let end = 0;
  let used = 0;
  for (const { index, segment } of graphemes.segment(window)) {
    const segmentEnd = index + segment.length;
    used += codePointLength(segment);
    // The window's last cluster may continue past it; only whole clusters are kept.
    if (used > budget || (segmentEnd === window.length && window.length < text.length)) break;
    end = segmentEnd;
  }
  let cut = text.slice(0, end);
  const atWordEnd = /^\s/.test(text.slice(end, end + 1));
  const space = cut.search(/\s\S*$/);
  if (!atWordEnd && space > 0 && codePointLength(cut.slice(0, space)) >= budget * 0.6) cut = cut.slice(0, space);
  return cut.replace(/[\s,;:.\-–—(]+$/u, '') + ELLIPSIS;
}

/** One clipped line, or the fallback when nothing readable is left. */
export function line(text: string | null | undefined, max: number, fallback: string): string {
  const value = oneLine(text ?? '');
  return clip(value || fallback, max);
}

/** One clipped line, or null when there is nothing to say. */
export function optionalLine(text: string | null | undefined, max: number): string | null {
  const value = oneLine(text ?? '');
  return value ? clip(value, max) : null;
}

export function capitalize(text: string): string {
  const first = text.codePointAt(0);
  if (first === undefined) return text;
  const head = String.fromCodePoint(first);
  return head.toLocaleUpperCase('en') + text.slice(head.length);
}

/** Sentences of a text, list markers removed; newlines end sentences too. */
export function sentences(text: string): string[] {
  return clean(text)
    .split(/(?<=[.!?…])\s+|\n+/u)
    .map((s) => oneLine(s.replace(/^\s*(?:[-*•>#]+|\d+[.)])\s+/u, '')))
    .filter((s) => /[\p{L}\p{N}]/u.test(s));
}

/** Lower-case words (letters and digits), counted as a voiceover line's are against its time. */
export { words };

/**
 * Whole sentences that fit in `maxWords`; when even the first does not, its first clause that
 * fits and says enough (three words or more, and half the room), ended as a sentence; else
 * nothing. A line is never cut mid-clause, and never trails off with an ellipsis of its own.
 */
export function speakable(text: string, maxWords: number): string {
  const parts = sentences(text);
  const kept: string[] = [];
  let count = 0;
  for (const sentence of parts) {
    const n = words(sentence).length;
    if (count + n > maxWords) break;
    kept.push(sentence);
    count += n;
  }
  if (kept.length > 0) return kept.join(' ');
  const clause = clauses(parts[0] ?? oneLine(text)).find((head) => {
    const n = words(head).length;
    return n <= maxWords && n >= Math.max(3, maxWords / 2);
  });
  return clause ? `${clause}.` : '';
}

/**
 * A sentence's opening clauses, longest first: cut before a semicolon, colon or dash, before a
 * comma that does not part the items of a list ("greenlight, comment and decline"), or before
 * a word that opens a clause ("with", "so", "because", "which"…).
 */
export function clauses(sentence: string): string[] {
  const cuts = new Set<number>();
  for (const match of sentence.matchAll(/\s*[;:–—]\s|\s+-\s+|\s(?=(?:with|so|because|which|while|whereas|although|though|but|where|when|unless|until|since|after|before|without|via|using|thanks to)\s)/giu)) cuts.add(match.index);
  for (const match of sentence.matchAll(/,\s/gu)) {
    const next = sentence.slice(match.index + 2).split(/[,;:.!?]/u)[0] ?? '';
    if (!/^(?:\S+\s+){0,3}(?:and|or)\s/iu.test(next)) cuts.add(match.index);
  }
  const heads = [...cuts].sort((a, b) => b - a).map((at) => sentence.slice(0, at).replace(/[\s,;:.\-–—(]+$/u, ''));
  return heads.filter((head) => words(head).length);
}

/**
 * Ways to say a text in fewer words, longest first, none with an ellipsis: the text, its first
 * sentences (as many as there are, down to one), then the first sentence's opening clauses.
 */
export function phrasings(text: string | null | undefined): string[] {
  const value = oneLine(text ?? '');
  if (!value) return [];
  const parts = sentences(value);
  const fewer = parts.map((_, i) => parts.slice(0, parts.length - i).join(' '));
  return [...new Set([value, ...fewer, ...clauses(parts[0] ?? value)])];
}

/** An identifier as words to say: "createProgressReporter" → "progress reporter", "max_retries" → "max retries". */
export function identifierWords(name: string): string {
  const spoken = name
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .replace(/[_$.\-]+/g, ' ')
    .trim()
    .toLocaleLowerCase('en')
    .split(/\s+/)
    .filter(Boolean);
  // A verb that only makes it a function ("create", "get", "use") says nothing of what it is.
  if (spoken.length > 1 && /^(create|make|build|new|get|set|use|handle|on|init|do|to|with)$/.test(spoken[0]!)) spoken.shift();
  return spoken.join(' ');
}

/** "src/billing/InvoiceExport.ts" → "Invoice export"; an index file takes its folder's name. */
export function humanizePath(path: string): string {
  const parts = path.split(/[\\/]+/).filter(Boolean);
  let name = parts.at(-1) ?? path;
  let stem = name.replace(/^\.+/, '').replace(/(\.[^.\s]{1,12})+$/u, '');
  const folder = parts.length > 1 && !/^(src|lib|app|apps|packages|services|pkg|internal|cmd|source)$/i.test(parts.at(-2) ?? '') ? parts.at(-2) : undefined;
  if (/^(index|main|mod|__init__|init|lib)$/i.test(stem) && parts.length > 1) {
    name = parts.at(-2) ?? name;
    stem = name;
  } else if (folder && /^[\p{L}\p{N}]+$/u.test(stem) && !/\p{Lu}.*\p{Lu}/u.test(stem) && folder.toLocaleLowerCase('en') !== stem.toLocaleLowerCase('en')) {
    // A one-word file name says little on its own: "tax/round.ts" reads "Tax round" ("plan/plan.ts" just "Plan").
    stem = `${folder} ${stem}`;
  }
  const spaced = stem
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/[-_.+\s]+/g, ' ')
    .trim()
    .toLocaleLowerCase('en');
  return capitalize(spaced || oneLine(name) || 'file');
}

/** Joins like a person would: "a, b and c". */
export function listing(items: string[], and = 'and'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${and} ${items.at(-1)}`;
}

/** "A" or "an" before a number of seconds, by how it is spoken: "an 8-second", "an 11-second", "a 10-second". */
export function articleForNumber(value: number): 'A' | 'An' {
  const whole = Math.floor(Math.abs(value));
  const spokenWithVowel = /^8/.test(String(whole)) || whole === 11 || whole === 18;
  return spokenWithVowel ? 'An' : 'A';
}
