import { creditsFor, Pitch, spokenWords, voiceoverRoomWords, type Brief } from '@vp/contracts';

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
 * A line is spoken from its shot's start until the next line starts (it may run on over the
 * quiet shots after it): one with more words than fit in that time is a problem.
 */
function lineTooLong(shots: Pitch['shots'], i: number): string[] {
  let roomMs = shots[i]!.durationMs;
  for (let next = i + 1; next < shots.length && !shots[next]!.voiceover; next++) roomMs += shots[next]!.durationMs;
  const said = spokenWords(shots[i]!.voiceover ?? '').length;
  const room = voiceoverRoomWords(roomMs / 1000);
  if (said <= room) return [];
  const until = shots.slice(i + 1).some((shot) => shot.voiceover) ? 'the next line' : 'the video ends';
  return [`shots[${i}].voiceover has ${said} words, but the ${roomMs / 1000} s from its shot's start until ${until} fit about ${room} (three words a second): shorten the line or lengthen its shot`];
}

export type PitchCheck = { ok: true; pitch: Pitch } | { ok: false; problems: string[] };

/** Checks any value against the Pitch schema and then against the brief's rules. */
export function checkPitch(brief: Brief, value: unknown): PitchCheck {
  const parsed = Pitch.safeParse(value);
  if (!parsed.success) {
    return { ok: false, problems: parsed.error.issues.map((issue) => `${pathOf(issue.path) || 'the pitch'}: ${issue.message}`) };
  }
  const problems = validatePitchFor(brief, parsed.data);
  return problems.length ? { ok: false, problems } : { ok: true, pitch: parsed.data };
}

function pathOf(path: PropertyKey[]): string {
  return path.map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i ? '.' : ''}${String(key)}`)).join('');
}
