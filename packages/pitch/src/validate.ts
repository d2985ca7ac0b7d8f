import { creditsFor, Pitch, spokenWords, voiceoverRoomWords, type Brief } from '@vp/contracts';
import { speakable } from './text.ts';

/**
 * The rules a pitch must follow for its brief that the Pitch schema cannot express.
 * Returns them broken, in words; an empty list means the pitch fits the brief.
 */
export function validatePitchFor(brief: Brief, pitch: Pitch): string[] {
  const problems: string[] = [];
  const { durationMs, sound } = brief.format;
  const total = pitch.shots.reduce((sum, shot) => sum + shot.durationMs, 0);
  if (total !== durationMs) {
    problems.push(`the shots' durationMs add up to ${total} ms; they must add up to exactly ${durationMs} ms`);
  }
  const mediaIds = new Set(brief.media.map((m) => m.id));
  const codePaths = new Set(brief.code.map((c) => c.path));
  pitch.shots.forEach((shot, i) => {
    const at = `shots[${i}]`;
    if (shot.index !== i) problems.push(`${at}.index is ${shot.index}; shots are numbered 0 to ${pitch.shots.length - 1} in order`);
    for (const id of shot.mediaIds) if (!mediaIds.has(id)) problems.push(`${at}.mediaIds names "${id}", which is not a media id of the brief`);
    for (const path of shot.codePaths) if (!codePaths.has(path)) problems.push(`${at}.codePaths names "${path}", which is not a code path of the brief`);
    if (!sound.voiceover && shot.voiceover !== null) problems.push(`${at}.voiceover must be null: voiceover is off for this brief`);
    else if (shot.voiceover) problems.push(...lineTooLong(pitch.shots, i));
  });
  if (!sound.music && pitch.music !== null) problems.push('music must be null: music is off for this brief');
  if (pitch.estimatedCredits !== creditsFor(durationMs)) {
    problems.push(`estimatedCredits is ${pitch.estimatedCredits}; a ${durationMs} ms video costs ${creditsFor(durationMs)}`);
  }
  if (pitch.verdict === 'skip' && !pitch.verdictReason?.trim()) problems.push('a skip verdict needs a verdictReason saying why');
  return problems;
}

/**
 * A line's time: from its shot's start until the next line starts (it may run on over the quiet
 * shots after it), or the video ends.
 */
function lineRoomMs(shots: Pitch['shots'], i: number): number {
  let roomMs = shots[i]!.durationMs;
  for (let next = i + 1; next < shots.length && !shots[next]!.voiceover; next++) roomMs += shots[next]!.durationMs;
  return roomMs;
}

/** A line with more words than fit in its time is a problem. */
function lineTooLong(shots: Pitch['shots'], i: number): string[] {
  const roomMs = lineRoomMs(shots, i);
  const said = spokenWords(shots[i]!.voiceover ?? '').length;
  const room = voiceoverRoomWords(roomMs / 1000);
  if (said <= room) return [];
  const until = shots.slice(i + 1).some((shot) => shot.voiceover) ? 'the next line' : 'the video ends';
  return [`shots[${i}].voiceover has ${said} words, but the ${roomMs / 1000} s from its shot's start until ${until} fit about ${room} (three words a second): shorten the line or lengthen its shot`];
}

/**
 * The pitch with each voiceover line cut to what fits in its time, as the built-in writer cuts
 * its own (whole sentences, else a clause): a model that miscounts still gets its pitch through.
 */
export function fitVoiceovers(pitch: Pitch): Pitch {
  const shots = pitch.shots.map((shot, i) => {
    if (!shot.voiceover) return shot;
    return { ...shot, voiceover: speakable(shot.voiceover, voiceoverRoomWords(lineRoomMs(pitch.shots, i) / 1000)) || null };
  });
  return { ...pitch, shots };
}

export type PitchCheck = { ok: true; pitch: Pitch } | { ok: false; problems: string[] };

/**
 * Checks any value against the Pitch schema and then against the brief's rules; with
 * `fitVoiceovers`, lines too long for their time are cut to fit first (see `fitVoiceovers`).
 */
export function checkPitch(brief: Brief, value: unknown, options: { fitVoiceovers?: boolean } = {}): PitchCheck {
  const parsed = Pitch.safeParse(value);
  if (!parsed.success) {
    return { ok: false, problems: parsed.error.issues.map((issue) => `${pathOf(issue.path) || 'the pitch'}: ${issue.message}`) };
  }
  const pitch = options.fitVoiceovers ? fitVoiceovers(parsed.data) : parsed.data;
  const problems = validatePitchFor(brief, pitch);
  return problems.length ? { ok: false, problems } : { ok: true, pitch };
}

function pathOf(path: PropertyKey[]): string {
  return path.map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i ? '.' : ''}${String(key)}`)).join('');
}
