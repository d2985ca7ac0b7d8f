import type { CodeFile, MediaItem } from '@vp/contracts';
import { changeFacts, sizeOf } from '../code-changes.ts';
import { talksAbout } from '../key-sentences.ts';
import { capitalize, clauses, humanizePath, identifierWords, listing, oneLine, phrasings, sentences } from '../text.ts';
import type { Story } from './story.ts';

/**
 * A shot before it is timed and its words are fitted to the frame. Each of its words comes with
 * shorter ways to say it, best first: the writer keeps the first that fits its box on screen, or
 * its time when spoken (see `words.ts`).
 */
export type Scene = {
  role: 'intro' | 'body' | 'outro';
  title: string;
  /** A few words standing for the shot when it is folded into a roundup. */
  gist: string;
  text: string | null;
  voiceover: string | null;
  /** Shorter ways to say the title, the text and the voiceover line. */
  shorter: { title: string[]; text: string[]; voiceover: string[] };
  beat: string;
  mediaIds: string[];
  codePaths: string[];
  /** Share of the running time, relative to the other shots. */
  weight: number;
  /** Which body shots survive when there are more than fit; higher stays. */
  priority: number;
};

type Words = Pick<Scene, 'title' | 'text' | 'voiceover'> & { shorter?: Partial<Scene['shorter']> };

const body = (scene: Omit<Scene, 'role' | 'mediaIds' | 'codePaths' | 'shorter'> & Partial<Pick<Scene, 'mediaIds' | 'codePaths'>> & { shorter?: Partial<Scene['shorter']> }): Scene => ({
  role: 'body', mediaIds: [], codePaths: [], ...scene, shorter: shorterOf(scene),
});

/** The alternatives given, then the shorter phrasings of the words themselves. */
function shorterOf({ text, voiceover, shorter }: Words): Scene['shorter'] {
  return {
    title: shorter?.title ?? [],
    text: [...phrasings(text).slice(1), ...(shorter?.text ?? [])],
    voiceover: [...phrasings(voiceover).slice(1).map(asSentence), ...(shorter?.voiceover ?? [])],
  };
}

/** A clause said on its own ends as a sentence. */
const asSentence = (text: string) => (/[.!?…]$/u.test(text) ? text : `${text}.`);
const firstSentence = (text: string | null | undefined) => (text ? sentences(text)[0] ?? null : null);
const label = (text: string) => oneLine(text).replace(/[.!?…]+$/u, '');

const LOOSE_END = /^(a|an|the|of|to|in|on|at|for|with|and|or|but|by|from|your|our|their|its|is|are|was|be|as|that|this|into|every|each)$/i;

/** A sentence's first words, standing for it as a label: its first clause when short, else its first words, not ending on a word that leads on. */
export function gistOf(text: string): string {
  const line = label(text);
  const words = line.split(' ');
  if (words.length <= 7) return line;
  const clause = clauses(line).find((head) => head.split(' ').length <= 7);
  if (clause) return clause;
  const head = words.slice(0, 6);
  while (head.length > 2 && LOOSE_END.test(head.at(-1)!)) head.pop();
  return head.join(' ');
}

export function introScene(story: Story, title: string, voiceover: string): Scene {
  const text = capitalize(story.subject);
  return {
    role: 'intro', title, gist: text, text, voiceover, beat: 'Hook', mediaIds: [], codePaths: [], weight: 0.8, priority: 0,
    shorter: { title: [story.voice.opener], text: [...phrasings(text).slice(1), capitalize(story.product)], voiceover: [story.voice.welcome(null)] },
  };
}

export function outroScene(story: Story): Scene {
  const cta = story.voice.cta(story.brand);
  return {
    role: 'outro', title: 'Call to action', gist: cta, text: cta, voiceover: cta,
    beat: 'Call to action', mediaIds: [], codePaths: [], weight: 0.8, priority: 0,
    shorter: { title: [], text: [story.voice.cta(null)], voiceover: [story.voice.cta(null)] },
  };
}

/**
 * One code change, told by what it does: the client's digest of it when there is one, else the
 * names its patch adds, removes, renames or reworks; else a sentence of the context that names
 * the file; else what its status says.
 */
export function changeScene(story: Story, file: CodeFile, rank: number, of: number): Scene {
  const name = humanizePath(file.path);
  const status = file.status ?? 'changed';
  const facts = changeFacts(file);
  const digest = firstSentence(file.digest);
  const context = story.sentences.find((s) => talksAbout(s, name)) ?? null;
  const shown = captionOf(facts);
  const said = sayChange(story, name, facts);
  const badge = story.voice.badge[status];
  return body({
    title: `${badge}: ${name}`,
    gist: name,
    text: digest ?? shown[0] ?? context ?? `${name} (+${file.additions} −${file.deletions})`,
    voiceover: digest ?? said ?? context ?? story.voice.said[status](status === 'added' ? name.toLocaleLowerCase('en') : name),
    shorter: {
      title: [name, badge],
      text: [...shown, ...(context ? phrasings(context) : []), `+${file.additions} −${file.deletions}`],
      voiceover: [...(said ? [said] : []), story.voice.said[status](name)],
    },
    beat: `Change ${rank} of ${of}`,
    codePaths: [file.path],
    weight: 1 + file.score * 0.6 + Math.min(0.6, Math.log10(1 + sizeOf(file)) / 5),
    priority: 1000 - rank,
  });
}

/** What a change does to its names, on screen: "Adds createReporter and onFrame", then shorter. */
function captionOf(facts: ReturnType<typeof changeFacts>): string[] {
  const parts: [string, string[]][] = [
    ['Renames', facts.renamed.map(([from, to]) => `${from} to ${to}`)],
    ['Adds', facts.added], ['Removes', facts.removed], ['Reworks', facts.updated],
  ];
  const said = parts.filter(([, names]) => names.length);
  if (!said.length) return facts.movedTo ? [`Moves to ${facts.movedTo}`] : [];
  const all = said.map(([verb, names], i) => `${i ? verb.toLocaleLowerCase('en') : verb} ${listing(names.slice(0, 3))}`).join('; ');
  const [verb, names] = said[0]!;
  return [...new Set([all, `${verb} ${listing(names.slice(0, 2))}`, `${verb} ${names[0]}`])];
}

/** The same, said in the story's voice with the names as words. */
function sayChange(story: Story, name: string, facts: ReturnType<typeof changeFacts>): string | null {
  const change = Object.fromEntries(Object.entries(story.voice.change).map(([kind, say]) => [kind, (...args: [string, string]) => capitalize(say(...args))])) as Story['voice']['change'];
  const things = (names: string[]) => listing([...new Set(names.map(identifierWords).filter(Boolean))].slice(0, 3));
  if (facts.renamed[0]) return change.renamed(identifierWords(facts.renamed[0][0]) || name, identifierWords(facts.renamed[0][1]));
  if (facts.added.length && things(facts.added)) return change.added(name, things(facts.added));
  if (facts.removed.length && things(facts.removed)) return change.removed(name, things(facts.removed));
  if (facts.updated.length && things(facts.updated)) return change.updated(name, things(facts.updated));
  return null;
}

/** A key sentence of the context; `label` says its role, e.g. "Highlight" → "Highlight: Teams asked for it". */
export function pointScene(story: Story, point: string, role: string | null, priority: number): Scene {
  const gist = gistOf(point);
  return body({
    title: role ? `${role}: ${gist}` : capitalize(gist), gist, text: point, voiceover: point, beat: role ?? 'Key point', priority,
    // A label names the point's role first: over a statement, "Why it matters" says more than its own first words.
    shorter: { title: [...(role ? [role] : []), capitalize(gist)] },
    weight: 1,
  });
}

export function mediaScene(story: Story, item: MediaItem, title: string, priority: number): Scene {
  const name = label(item.name);
  return body({
    title, gist: gistOf(name), text: firstSentence(item.description) ?? name, voiceover: story.voice.look(name),
    shorter: { title: [capitalize(gistOf(name)), story.voice.look('it').replace(/[.!]$/, '')], text: [gistOf(name)], voiceover: [story.voice.look('this')] },
    beat: label(title), mediaIds: [item.id], priority,
    weight: item.kind === 'video' ? 1.4 : 1.1,
  });
}

export function subjectScene(story: Story, priority: number): Scene {
  const text = capitalize(story.subject);
  return body({
    title: text, gist: gistOf(text), text, voiceover: story.voice.hello(story.subject), beat: 'The message', priority,
    shorter: { title: [capitalize(story.product)], voiceover: [story.voice.hello(story.product)] },
    weight: 1.2,
  });
}

/** A shot for something a comment asked about: its sentence in the context, or the term itself. */
export function spotlightScene(story: Story, term: string): Scene {
  const text = capitalize(term);
  const said = story.sentences.find((s) => talksAbout(s, term));
  if (said) return { ...pointScene(story, said, gistOf(text), 0), beat: 'Spotlight' };
  return body({
    title: text, gist: gistOf(text), text, voiceover: story.voice.spotlight(term), beat: 'Spotlight', priority: 0,
    shorter: { title: [gistOf(text)] },
    weight: 1,
  });
}

/** One shot standing for several changes in one area of the code, for digests. */
export function areaScene(story: Story, area: string, files: CodeFile[], priority: number): Scene {
  const names = files.slice(0, 3).map((f) => humanizePath(f.path));
  const count = `${files.length} change${files.length === 1 ? '' : 's'}`;
  const only = files.length === 1 && files[0] && names[0]?.toLocaleLowerCase('en').includes(area.toLocaleLowerCase('en')) ? files[0] : null;
  return body({
    title: `${area}: ${count}`, gist: area, text: listing(names),
    voiceover: only ? story.voice.said[only.status ?? 'changed'](names[0] ?? area) : `${area}: ${listing(names.map((n) => n.toLocaleLowerCase('en')))}.`,
    shorter: { title: [area, count], text: [listing(names.slice(0, 2)), names[0] ?? area], voiceover: [`${area}: ${count}.`] },
    beat: area, codePaths: files.map((f) => f.path), priority,
    weight: 1 + Math.min(0.8, files.length / 5),
  });
}

/** The shot that stands in for the ones that did not fit; `alone` when it is the only body shot. */
export function roundupScene(story: Story, folded: Scene[], alone: boolean): Scene {
  const gists = folded.map((s) => oneLine(s.gist));
  const title = alone ? story.voice.glance : story.voice.more(folded.length);
  return body({
    title, gist: title, text: gists.join(' · '),
    voiceover: (alone ? story.voice.glanceSaid : story.voice.moreSaid)(listing(gists.slice(0, 3))),
    shorter: {
      text: [gists.slice(0, 4).join(' · '), gists.slice(0, 2).join(' · '), gists[0] ?? title],
      voiceover: [(alone ? story.voice.glanceSaid : story.voice.moreSaid)(listing(gists.slice(0, 2))), (alone ? story.voice.glanceSaid : story.voice.moreSaid)(gists[0] ?? '')],
    },
    beat: 'Roundup', priority: 0,
    mediaIds: folded.flatMap((s) => s.mediaIds), codePaths: folded.flatMap((s) => s.codePaths),
    weight: 1.2,
  });
}

/** Adds a media item to a shot that was written without it. */
export function withMedia(scene: Scene, item: MediaItem): Scene {
  return { ...scene, mediaIds: [...scene.mediaIds, item.id] };
}
