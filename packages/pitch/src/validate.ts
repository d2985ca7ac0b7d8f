import { creditsFor, Pitch, spokenWords, voiceoverRoomWords, type Brief } from '@vp/contracts';
import { fitsBox, shotBoxes, signOffBox, signOffOf, type TextBox } from '@vp/render/layouts';
import { oneLine, phrasings, speakable } from './text.ts';

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
  if (pitch.verdict === 'video') problems.push(...wordsOffScreen(brief, pitch), ...ellipsesOfItsOwn(brief, pitch));
  return problems;
}

/**
 * The on-screen words that do not fit where the renderer sets them on the brief's frame, whole,
 * at any size of its type scale (its own font metrics), or say more than a viewer reads in the
 * shot's time (about three words a second); the video's title when the end card shows it.
 */
function wordsOffScreen(brief: Brief, pitch: Pitch): string[] {
  const problems: string[] = [];
  pitch.shots.forEach((shot, i) => {
    const boxes = shotBoxes(brief, shot, i, pitch.shots.length);
    const readable = voiceoverRoomWords(shot.durationMs / 1000);
    if (shot.text && boxes.text && !fitsBox(shot.text, boxes.text)) problems.push(`shots[${i}].text does not fit on screen: ${room(boxes.text)}; write it shorter`);
    else if (shot.text && spokenWords(shot.text).length > readable) {
      problems.push(`shots[${i}].text has ${spokenWords(shot.text).length} words; a viewer reads about ${readable} in its ${shot.durationMs / 1000} s (three words a second): write it shorter`);
    }
    const titleBox = boxes.kind === 'text' && !shot.text ? boxes.titleAlone : boxes.title;
    if (titleBox && !fitsBox(shot.title, titleBox)) problems.push(`shots[${i}].title does not fit on screen: ${room(titleBox)}; write it shorter`);
  });
  const box = signOffBox(brief);
  if (signOffOf(brief, pitch) === pitch.title && !fitsBox(pitch.title, box)) problems.push(`title does not fit on the end card, which shows it: ${room(box)}; write it shorter`);
  return problems;
}

/** About how many characters a box holds at its smallest size, to say how much shorter to write. */
function room(box: TextBox): string {
  const smallest = box.sizes.at(-1) ?? 24;
  const characters = Math.floor(box.maxWidth / (smallest * 0.55)) * box.maxLines;
  return `it holds about ${characters} characters (${box.maxLines} line${box.maxLines === 1 ? '' : 's'} at the smallest type)`;
}

/** Shown or spoken words that end on an ellipsis the brief did not write: a viewer sees a cut. */
function ellipsesOfItsOwn(brief: Brief, pitch: Pitch): string[] {
  const own = oneLine([brief.intent, brief.context, brief.brand.name, ...brief.media.flatMap((m) => [m.name, m.description]), ...brief.code.flatMap((c) => [c.path, c.digest, c.patch])].filter(Boolean).join('\n')).toLocaleLowerCase('en');
  const invented = (text: string | null) => [...oneLine(text ?? '').toLocaleLowerCase('en').matchAll(/([\p{L}\p{N}]*)\s*…/gu)].some((m) => !own.includes(`${m[1]}…`));
  return pitch.shots.flatMap((shot, i) => (['title', 'text', 'voiceover'] as const)
    .filter((field) => invented(shot[field]))
    .map((field) => `shots[${i}].${field} ends on an ellipsis, as if cut: write it whole, shorter`));
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
 * A line that cannot be cut so stays as it is, for the check to send back.
 */
export function fitVoiceovers(pitch: Pitch): Pitch {
  const shots = pitch.shots.map((shot, i) => {
    if (!shot.voiceover) return shot;
    return { ...shot, voiceover: speakable(shot.voiceover, voiceoverRoomWords(lineRoomMs(pitch.shots, i) / 1000)) || shot.voiceover };
  });
  return { ...pitch, shots };
}

/**
 * The pitch with each on-screen text too long for its box or its time said in fewer words, as
 * the built-in writer does (its first sentences, else its first clause), when one of them fits.
 */
export function fitScreenWords(brief: Brief, pitch: Pitch): Pitch {
  const shots = pitch.shots.map((shot, i) => {
    const box = shotBoxes(brief, shot, i, pitch.shots.length).text;
    if (!shot.text || !box) return shot;
    const readable = voiceoverRoomWords(shot.durationMs / 1000);
    const fits = (text: string) => fitsBox(text, box) && spokenWords(text).length <= readable;
    return fits(shot.text) ? shot : { ...shot, text: phrasings(shot.text).find(fits) ?? shot.text };
  });
  return { ...pitch, shots };
}

export type PitchCheck = { ok: true; pitch: Pitch } | { ok: false; problems: string[] };

/**
 * Checks any value against the Pitch schema and then against the brief's rules; with
 * `fitVoiceovers`, lines too long for their time are cut to fit first (see `fitVoiceovers`),
 * and with `fitScreenWords` on-screen texts too long for their box or time (see `fitScreenWords`).
 */
export function checkPitch(brief: Brief, value: unknown, options: { fitVoiceovers?: boolean; fitScreenWords?: boolean } = {}): PitchCheck {
  const parsed = Pitch.safeParse(value);
  if (!parsed.success) {
    return { ok: false, problems: parsed.error.issues.map((issue) => `${pathOf(issue.path) || 'the pitch'}: ${issue.message}`) };
  }
  const spoken = options.fitVoiceovers ? fitVoiceovers(parsed.data) : parsed.data;
  const pitch = options.fitScreenWords ? fitScreenWords(brief, spoken) : spoken;
  const problems = validatePitchFor(brief, pitch);
  return problems.length ? { ok: false, problems } : { ok: true, pitch };
}

function pathOf(path: PropertyKey[]): string {
  return path.map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i ? '.' : ''}${String(key)}`)).join('');
}
