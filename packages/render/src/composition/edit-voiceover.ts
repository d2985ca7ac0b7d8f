import { spokenWords, voiceoverRoomWords } from '@vp/contracts';
import { voiceOffsetMs } from './choreography.ts';
import type { CompositionEdit, EditIssue } from './edit-form.ts';
import type { Composition, Scene, VoiceLine } from './schema.ts';

/** A voiceover line with the field of the form it came from, and whether its words were typed in this edit. */
type TypedLine = { line: VoiceLine; path: string; typed: boolean };

/** A line's words as edited: the stored ones when the field was not sent or sent back unchanged, else the new ones (empty: none). */
export type EditedWords = (path: string, sent: string | undefined, kept: string | null) => string | null;

/**
 * The voiceover after an edit: each line's words as edited (emptied, dropped), new lines on
 * scenes that had none (spoken in `voice`, version 1's), each placed after its scene's cut and
 * in the scenes' order; a removed scene's line goes with it. Lines too long for their time, and
 * new lines a scene or the video cannot take, are added to `issues`.
 */
export function editedVoiceover(
  base: Composition, timed: Composition, edit: CompositionEdit, order: number[], words: EditedWords,
  voice: Pick<VoiceLine, 'voice' | 'wordsPerMinute'> | null | undefined, issues: EditIssue[],
): VoiceLine[] {
  const placeOf = new Map(timed.scenes.map((scene, place) => [scene.id, place]));
  const spoken = new Set(base.audio.voiceover.map((line) => line.sceneId));
  const added = order.flatMap((i): TypedLine[] => {
    const text = edit.scenes?.[i]?.voiceover;
    const scene = base.scenes[i]!;
    if (!text) return [];
    const refusal = spoken.has(scene.id) ? 'This scene has a voiceover line: change that one.' : !voice ? 'This video has no voiceover: its format asked for none.' : null;
    if (refusal) {
      issues.push({ path: `scenes.${i}.voiceover`, message: refusal });
      return [];
    }
    return [{ line: { sceneId: scene.id, text, offsetMs: 0 /* placed below, with the others */, ...voice! }, path: `scenes.${i}.voiceover`, typed: true }];
  });
  const kept = base.audio.voiceover.map((line, i): TypedLine => {
    const text = words(`voiceover.${i}`, edit.voiceover?.[i], line.text) ?? '';
    return { line: { ...line, text }, path: `voiceover.${i}`, typed: text !== line.text };
  });
  const lines = [...kept, ...added]
    .flatMap((typed) => {
      const place = placeOf.get(typed.line.sceneId);
      return typed.line.text && place !== undefined ? [{ ...typed, line: { ...typed.line, offsetMs: voiceOffsetMs(timed.scenes[place] as Scene) } }] : [];
    })
    .sort((a, b) => placeOf.get(a.line.sceneId)! - placeOf.get(b.line.sceneId)!);
  issues.push(...linesTooLong(timed, lines, roomOfLines(base, base.audio.voiceover)));
  return lines.map(({ line }) => line);
}

/** Each line's time, by its scene: from its start until the next line starts, or the video ends. */
function roomOfLines(composition: Composition, lines: VoiceLine[]): Map<string, number> {
  const starts = new Map(composition.scenes.map((scene) => [scene.id, scene.startMs]));
  const at = lines.map((line) => (starts.get(line.sceneId) ?? 0) + line.offsetMs);
  return new Map(lines.map((line, k) => [line.sceneId, (at[k + 1] ?? composition.durationMs) - at[k]!]));
}

/**
 * The lines that say more than fits in their time, at the pitch's three words a second: the
 * renderer would speak them hurried, then cut them. Only lines this edit typed, or took time from
 * (a scene shortened, a line added after it), are held to it: a line as it was, in the time it had,
 * is not held against an edit.
 */
function linesTooLong(composition: Composition, lines: TypedLine[], roomBefore: Map<string, number>): EditIssue[] {
  const room = roomOfLines(composition, lines.map(({ line }) => line));
  return lines.flatMap(({ line, path, typed }, k) => {
    const roomMs = room.get(line.sceneId)!;
    const said = spokenWords(line.text).length;
    const fits = voiceoverRoomWords(roomMs / 1000);
    if (said <= fits || (!typed && roomMs >= (roomBefore.get(line.sceneId) ?? Infinity))) return [];
    const until = k + 1 < lines.length ? 'the next line' : 'the video ends';
    return [{ path, message: `This line has ${said} words; the ${seconds(roomMs)} until ${until} fit about ${fits}: shorten it, or lengthen its scene.` }];
  });
}

export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
