import type { StoredComposition } from './composition.ts';

/** Whether the edit form has a field of this name, where its refusal is shown beside it. */
export function placedOnForm(path: string, composition: StoredComposition): boolean {
  const scene = /^scenes\.(\d+)\.(title|text|durationMs|transition\.kind|transition\.durationMs|position|remove|voiceover)$/.exec(path);
  if (scene) return Number(scene[1]) < (composition.scenes?.length ?? 0) && (Number(scene[1]) > 0 || !scene[2]!.startsWith('transition'));
  const line = /^voiceover\.(\d+)$/.exec(path);
  if (line) return Number(line[1]) < (composition.audio?.voiceover?.length ?? 0);
  const medium = /^media\.(\d+)\.url$/.exec(path);
  if (medium) return Number(medium[1]) < (composition.media?.length ?? 0);
  return /^brand\.(primaryColor|backgroundColor)$|^music\.(bed|gainDb)$/.test(path);
}

/** What a refusal shown above the form is about, in a person's words. */
export function placeOf(path: string): string {
  const scene = /^scenes\.(\d+)/.exec(path);
  const line = /^voiceover\.(\d+)/.exec(path);
  if (scene) return `Scene ${Number(scene[1]) + 1}`;
  if (line) return `Voiceover line ${Number(line[1]) + 1}`;
  if (path.startsWith('music.')) return 'The music';
  const medium = /^media\.(\d+)/.exec(path);
  if (medium) return `Medium ${Number(medium[1]) + 1}`;
  if (path === 'baseVersion') return 'The version';
  return path === 'durationMs' ? 'The video' : path === 'scenes' ? 'The scenes' : path === '' ? 'The form' : path;
}
