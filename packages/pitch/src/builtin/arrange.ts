import type { MediaItem } from '@vp/contracts';
import { contentWords, talksAbout } from '../key-sentences.ts';
import { roundupScene, spotlightScene, withMedia, type Scene } from './scene.ts';
import type { Story } from './story.ts';

const FOCUS_PRIORITY = 1_000_000;

/** True when a shot talks about the term in its words or the code it shows. */
export function mentions(scene: Scene, term: string): boolean {
  return talksAbout([scene.title, scene.text, scene.voiceover, ...scene.codePaths].join(' '), term);
}

/**
 * Puts the shots a comment asked about first and keeps them when shots are folded; a term
 * nothing in the brief talks about gets a shot of its own. The latest request leads.
 */
export function spotlight(story: Story, body: Scene[], focus: string[]): Scene[] {
  let result = body;
  [...focus].reverse().forEach((term, i) => {
    const lift = FOCUS_PRIORITY * (i + 1);
    const hits = result.filter((s) => mentions(s, term));
    const leading = hits.length ? hits.map((s) => ({ ...s, priority: s.priority + lift })) : [{ ...spotlightScene(story, term), priority: lift }];
    result = [...leading, ...result.filter((s) => !hits.includes(s))];
  });
  return result;
}

/**
 * At most `budget` shots: the highest priorities stay in their order, the rest fold into one
 * roundup, which takes the place of the first folded shot but never comes before the lead shot.
 */
export function fit(story: Story, body: Scene[], budget: number): Scene[] {
  if (body.length <= budget) return body;
  const ranked = body.map((scene, i) => ({ scene, i })).sort((a, b) => b.scene.priority - a.scene.priority || a.i - b.i);
  const keep = new Set(ranked.slice(0, Math.max(0, budget - 1)).map(({ i }) => i));
  const lead = keep.size ? ranked[0]!.i : -1;
  const at = Math.max(lead + 1, body.findIndex((_, i) => !keep.has(i)));
  const roundup = roundupScene(story, body.filter((_, i) => !keep.has(i)), keep.size === 0);
  const kept = (from: number, to: number) => body.filter((_, i) => keep.has(i) && i >= from && i < to);
  return [...kept(0, at), roundup, ...kept(at, body.length)];
}

/** Every media item the shots do not show yet goes to the body shot that talks most about it. */
export function attachMedia(scenes: Scene[], media: MediaItem[]): Scene[] {
  const shown = new Set(scenes.flatMap((s) => s.mediaIds));
  const result = [...scenes];
  const bodyAt = result.flatMap((s, i) => (s.role === 'body' ? [i] : []));
  const slots = bodyAt.length ? bodyAt : result.map((_, i) => i);
  media.filter((m) => !shown.has(m.id)).forEach((item, n) => {
    const about = new Set(contentWords(`${item.name} ${item.description ?? ''}`));
    const overlap = (i: number) => contentWords(`${result[i]!.title} ${result[i]!.text ?? ''}`).filter((w) => about.has(w)).length;
    const best = slots.reduce((a, b) => (overlap(b) > overlap(a) ? b : a), slots[n % slots.length]!);
    result[best] = withMedia(result[best]!, item);
  });
  return result;
}

/** Splits the longest shot until there are enough shots to keep each under a minute. */
export function ensureCount(scenes: Scene[], min: number): Scene[] {
  const result = [...scenes];
  while (result.length < min) {
    const i = result.reduce((a, s, k) => (s.weight > result[a]!.weight ? k : a), 0);
    const scene = result[i]!;
    const half = { ...scene, weight: scene.weight / 2 };
    const continued: Scene = {
      ...half, title: `${scene.title}, continued`, text: null, voiceover: null, mediaIds: [], codePaths: [], beat: 'Hold',
      shorter: { title: [...scene.shorter.title.map((title) => `${title}, continued`), scene.title, 'Continued'], text: [], voiceover: [] },
    };
    result.splice(i, 1, half, continued);
  }
  return result;
}
