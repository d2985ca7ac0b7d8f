import { MediaItem, spokenWords, StorableText, voiceoverRoomWords } from '@vp/contracts';
import { z } from 'zod';
import { brandStyle } from './brand.ts';
import { transitionEffects, transitionInto, transitionMsBetween, voiceOffsetMs } from './choreography.ts';
import { Composition, MAX_SCENES, parseComposition, retime, TRANSITIONS, type Music, type Scene, type VoiceLine } from './schema.ts';

/** Text as a person types it: storable, ends trimmed, a form's CRLF line breaks as LF. */
const Typed = (max: number) =>
  StorableText.transform((text) => text.replace(/\r\n?/g, '\n').trim()).pipe(z.string().max(max));
/** A whole number, sent as a number or as a form's digits; an empty field is left out. */
const TypedWhole = (min: number, max: number, words: { whole: string; min: string; max: string }) =>
  z.preprocess(
    (value) => (typeof value === 'string' ? (value.trim() === '' ? undefined : /^\s*-?\d+\s*$/.test(value) ? Number(value) : NaN) : value),
    z.number({ error: (issue) => (issue.code === 'invalid_type' ? words.whole : undefined) }).int(words.whole)
      .min(min, words.min).max(max, words.max).optional(),
  );
const TypedMs = (min: number, max: number) =>
  TypedWhole(min, max, { whole: 'a whole number of milliseconds', min: `at least ${min} ms`, max: `at most ${max} ms` });
const PLACE = `a place from 1 to ${MAX_SCENES}`;
const VOLUME = 'a whole number of decibels from -40 to 0';
/** Whether a checkbox's value says ticked: a browser sends `on` for one ticked and nothing for one not; a program may send a boolean. */
export const ticked = (value: unknown) => value === true || value === 'on' || value === 'true';
const Ticked = z.preprocess((value) => (ticked(value) ? true : value === 'false' ? false : value), z.boolean('ticked or not').optional());
const Hex = z.string().transform((text) => text.trim().toLowerCase()).pipe(z.string().regex(/^#[0-9a-f]{6}$/, 'a colour as #rrggbb'));
/** Fields keyed by their index in the project's list (a form's `scenes.2.title`). */
const ByIndex = <T extends z.ZodType>(item: T) => z.record(z.string().regex(/^(0|[1-9]\d{0,2})$/, 'an index'), item);

/**
 * What a person may change in a project, each field optional (what is left out stays): the
 * accent and background colours (the text's follows the background, as the composer makes it);
 * each scene's words, length, transition in (none into the first), place in the video,
 * whether it stays, and a voiceover line for a scene that has none; each voiceover line's words
 * (emptied, the line is dropped); whether the music bed plays, and its level; each medium's
 * address (another picture or clip of the same kind, fetched as a brief's are when the version is
 * exported). Code and size stay as made.
 */
export const CompositionEdit = z.object({
  brand: z.object({ primaryColor: Hex.optional(), backgroundColor: Hex.optional() }).optional(),
  scenes: ByIndex(z.object({
    title: Typed(200).optional(),
    text: Typed(500).optional(),
    durationMs: TypedMs(300, 120_000),
    transition: z.object({ kind: z.enum(TRANSITIONS).optional(), durationMs: TypedMs(0, 2000) }).optional(),
    /** Its place from 1, as numbered on the page; a scene given another scene's place goes just before it (after it, moving later). */
    position: TypedWhole(1, MAX_SCENES, { whole: PLACE, min: PLACE, max: PLACE }),
    remove: Ticked,
    /** A new line for a scene without one; a scene's line is changed under `voiceover`. */
    voiceover: Typed(1000).optional(),
  })).optional(),
  voiceover: ByIndex(Typed(1000)).optional(),
  media: ByIndex(z.object({
    url: StorableText.transform((text) => text.trim()).pipe(MediaItem.shape.url).optional(),
  })).optional(),
  music: z.object({
    /** A select's value: a form always sends one. */
    bed: z.enum(['on', 'off'], 'on or off').optional(),
    /** Its level under the voice and effects; 0 is as loud as the bed is made. */
    gainDb: TypedWhole(-40, 0, { whole: VOLUME, min: VOLUME, max: VOLUME }),
  }).optional(),
});
export type CompositionEdit = z.infer<typeof CompositionEdit>;

export type EditIssue = { path: string; message: string };
/** The kinds of transition a form offers. */
export { TRANSITIONS };
export type { Music };

/**
 * The next version of a project: the edit applied to the `stored` one, the scenes kept in their
 * new order (one next to a new neighbour, its transition in left as it was, takes the composer's
 * length there) and retimed, and the sound cues that follow the picture placed again (each voice
 * line after its scene's cut, with `soundEffects` a whoosh on each transition), as the composer
 * places them. A new line is spoken in `voice` (version 1's); without it, the video has no
 * voiceover and takes none. A music bed switched back on is `music` (version 1's); without it,
 * the video has none and takes none. Text sent back as a browser sends the stored text stays as stored:
 * an untouched form changes nothing. Refused with every issue when the result is not a valid
 * project, or lasts longer than `maxDurationMs` (the length the credits paid for).
 */
export function editComposition(
  stored: unknown,
  input: unknown,
  options: { maxDurationMs: number; soundEffects: boolean; voice?: Pick<VoiceLine, 'voice' | 'wordsPerMinute'> | null; music?: Music | null },
): { composition: Composition } | { issues: EditIssue[] } {
  const base = parseComposition(stored);
  const parsed = CompositionEdit.safeParse(input);
  if (!parsed.success) return { issues: parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })) };
  const edit = parsed.data;
  const unknown = [
    ...Object.keys(edit.scenes ?? {}).filter((i) => !base.scenes[Number(i)]).map((i) => `scenes.${i}`),
    ...Object.keys(edit.voiceover ?? {}).filter((i) => !base.audio.voiceover[Number(i)]).map((i) => `voiceover.${i}`),
    ...Object.keys(edit.media ?? {}).filter((i) => !base.media[Number(i)]).map((i) => `media.${i}`),
  ];
  if (unknown.length) return { issues: unknown.map((path) => ({ path, message: 'The project has nothing at this index.' })) };

  const words = (path: string, sent: string | undefined, kept: string | null) => (sent === undefined || sameText(path, sent, kept) ? kept : sent || null);
  const lengths = base.scenes.map((scene, i) => edit.scenes?.[i]?.durationMs ?? scene.durationMs);
  const order = sceneOrder(base.scenes.length, edit.scenes ?? {});
  if (!order.length) return { issues: [{ path: 'scenes', message: 'Keep at least one scene.' }] };
  const scenes = order.reduce<Scene[]>((placed, i, place) => {
    const scene = base.scenes[i]!;
    const change = edit.scenes?.[i];
    const before = order[place - 1];
    // A scene that follows the same one as before keeps its transition in unless it was changed.
    const samePredecessor = place === 0 ? i === 0 : before === i - 1;
    if (!change && samePredecessor) return [...placed, scene];
    const edited = { ...scene, title: words(`scenes.${i}.title`, change?.title, scene.title), text: words(`scenes.${i}.text`, change?.text, scene.text), durationMs: lengths[i]! };
    if (before === undefined) return [...placed, { ...edited, transition: i === 0 ? scene.transition : { kind: 'cut', durationMs: 0 } }];
    // The page offers no transition for the scene made first: moved later, it takes the composer's.
    const into = i > 0 ? change?.transition : undefined;
    const neighbours: [number, number] = [lengths[before]!, lengths[i]!];
    const kind = into?.kind ?? (i === 0 ? transitionInto(scene.kind, placed.at(-1)!.transition.kind, neighbours).kind : scene.transition.kind);
    // Next to a new neighbour, the stored length sent back (a page sends every field) was not typed.
    const typedMs = samePredecessor || into?.durationMs !== scene.transition.durationMs ? into?.durationMs : undefined;
    const transitionMs = typedMs ?? (samePredecessor ? scene.transition.durationMs : 0);
    // A cut takes no time: both scenes would be on screen at once. Another kind left at 0
    // (chosen for a cut, or next to a new neighbour) takes the length the composer gives a transition there.
    return [...placed, { ...edited, transition: { kind, durationMs: kind === 'cut' ? 0 : transitionMs || transitionMsBetween(neighbours) } }];
  }, []);
  const { primaryColor = base.brand.primaryColor, backgroundColor = base.brand.backgroundColor } = edit.brand ?? {};
  const recoloured = primaryColor !== base.brand.primaryColor || backgroundColor !== base.brand.backgroundColor;
  // New colours as the composer makes a brief's readable: the text's from the background, an accent lost in it lifted.
  const brand = recoloured ? { ...brandStyle({ ...base.brand, primaryColor, backgroundColor }), name: base.brand.name, fontFamily: base.brand.fontFamily } : base.brand;
  const media = base.media.map((asset, i) => ({ ...asset, url: edit.media?.[i]?.url ?? asset.url }));
  const timed = retime({ ...base, brand, scenes, media: mediaStillPlaced({ ...base, media }, scenes) });
  const placeOf = new Map(timed.scenes.map((scene, place) => [scene.id, place]));
  const issues: EditIssue[] = [];
  const spoken = new Set(base.audio.voiceover.map((line) => line.sceneId));
  const added = order.flatMap((i): TypedLine[] => {
    const text = edit.scenes?.[i]?.voiceover;
    const scene = base.scenes[i]!;
    if (!text) return [];
    const refusal = spoken.has(scene.id) ? 'This scene has a voiceover line: change that one.' : !options.voice ? 'This video has no voiceover: its format asked for none.' : null;
    if (refusal) {
      issues.push({ path: `scenes.${i}.voiceover`, message: refusal });
      return [];
    }
    return [{ line: { sceneId: scene.id, text, offsetMs: 0 /* placed below, with the others */, ...options.voice! }, path: `scenes.${i}.voiceover`, typed: true }];
  });
  const kept = base.audio.voiceover.map((line, i): TypedLine => {
    const text = words(`voiceover.${i}`, edit.voiceover?.[i], line.text) ?? '';
    return { line: { ...line, text }, path: `voiceover.${i}`, typed: text !== line.text };
  });
  // A removed scene's line goes with it; the others follow their scenes' order.
  const lines = [...kept, ...added]
    .flatMap((typed) => {
      const place = placeOf.get(typed.line.sceneId);
      return typed.line.text && place !== undefined ? [{ ...typed, line: { ...typed.line, offsetMs: voiceOffsetMs(timed.scenes[place]!) } }] : [];
    })
    .sort((a, b) => placeOf.get(a.line.sceneId)! - placeOf.get(b.line.sceneId)!);
  issues.push(...linesTooLong(timed, lines, roomOfLines(base, base.audio.voiceover)));
  const voiceover = lines.map(({ line }) => line);
  const sfx = options.soundEffects ? transitionEffects(timed.scenes) : [];
  const music = musicAfter(base.audio.music, edit.music, options.music ?? null, issues);
  const next = { ...timed, audio: { ...timed.audio, voiceover, music, sfx } };

  // Issues are named by the scene's index on the form, not its new place.
  const onForm = (path: PropertyKey[]) => (path[0] === 'scenes' && typeof path[1] === 'number' ? ['scenes', order[path[1]], ...path.slice(2)] : path).join('.');
  const checked = Composition.safeParse(next);
  if (!checked.success) issues.push(...checked.error.issues.map((issue) => ({ path: onForm(issue.path), message: issue.message })));
  next.scenes.forEach((scene, place) => {
    // Words are all a scene of these kinds shows; without them its frames are blank, and the review refuses the video.
    if (WORDS_ONLY.has(scene.kind) && !scene.title && !scene.text) issues.push({ path: onForm(['scenes', place, 'title']), message: 'This scene shows only words: give it a heading or a text.' });
  });
  if (next.durationMs > options.maxDurationMs) {
    issues.push({
      path: 'durationMs',
      message: `The scenes add up to ${seconds(next.durationMs)}; the video may last at most ${seconds(options.maxDurationMs)}, the length its credits paid for.`,
    });
  }
  return checked.success && !issues.length ? { composition: checked.data } : { issues };
}

/** A voiceover line with the field of the form it came from, and whether its words were typed in this edit. */
type TypedLine = { line: VoiceLine; path: string; typed: boolean };

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

/** The music bed as edited: switched off, or on (as it was, else as version 1 had it) at the level asked. */
function musicAfter(stored: Music | null, change: CompositionEdit['music'], first: Music | null, issues: EditIssue[]): Music | null {
  const bed = change?.bed ?? (stored ? 'on' : 'off');
  if (bed === 'off') return null;
  const made = stored ?? first;
  if (!made) {
    issues.push({ path: 'music.bed', message: 'This video has no music bed: its format asked for none.' });
    return null;
  }
  return { ...made, gainDb: change?.gainDb ?? made.gainDb };
}

/**
 * The indexes of the scenes kept, in their new order: by the place each was given, its own when
 * none. Given another scene's place, a scene moving earlier goes just before that scene, and one
 * moving later just after it, as when it is dragged there.
 */
function sceneOrder(count: number, changes: CompositionEdit['scenes'] & object): number[] {
  const key = (i: number) => {
    const place = changes[i]?.position ?? i + 1;
    return place === i + 1 ? place : place + (place < i + 1 ? -0.5 : 0.5);
  };
  return [...Array(count).keys()].filter((i) => !changes[i]?.remove).sort((a, b) => key(a) - key(b) || a - b);
}

/** The project's media without those only removed scenes showed. */
function mediaStillPlaced(base: Composition, scenes: Scene[]): Composition['media'] {
  const placed = (list: Scene[]) => new Set(list.flatMap((scene) => scene.media.map((m) => m.assetId)));
  const [before, after] = [placed(base.scenes), placed(scenes)];
  return base.media.filter((asset) => after.has(asset.id) || !before.has(asset.id));
}

/**
 * What a form made from `stored` changes, moved onto `newer`, a version saved since the form was
 * opened: the fields whose values differ from `stored`'s, at their place in `newer` (a scene's
 * fields follow the scene, a voiceover line follows its scene, a medium's address its medium). A browser sends every field, so
 * carrying the untouched ones too would undo what `newer` changed. `lost` counts the changed
 * fields whose scene, line or medium `newer` dropped.
 */
export function rebaseEdit(stored: unknown, newer: unknown, input: unknown): { values: Record<string, unknown>; lost: number } {
  const [from, to] = [parseComposition(stored), parseComposition(newer)];
  const values: Record<string, unknown> = {};
  let lost = 0;
  for (const [path, kept] of editableFields(from)) {
    const sent = fieldValue(input, path);
    if (sent === undefined || (typeof sent === 'string' && sameText(path, sent, kept === null ? null : String(kept)))) continue;
    const [, list, index, rest] = /^(scenes|voiceover|media)\.(\d+)(.*)$/.exec(path) ?? [];
    if (!list) {
      setField(values, path, sent);
      continue;
    }
    const keys = LIST_KEYS[list as keyof typeof LIST_KEYS];
    const place = keys(to).indexOf(keys(from)[Number(index)]!);
    // A scene removed, or a line emptied, here and gone there: what the form wanted holds.
    const wantedGone = list === 'scenes' ? ticked(fieldValue(input, `scenes.${index}.remove`)) : list === 'voiceover' && typeof sent === 'string' && !sent.trim();
    if (place < 0) lost += wantedGone ? 0 : 1;
    // A place beyond the newer version's scenes is its last: the page allows no more.
    else setField(values, `${list}.${place}${rest}`, rest === '.position' && Number(sent) > to.scenes.length ? String(to.scenes.length) : sent);
  }
  return { values, lost };
}

/** What an item of each list a form edits is known by from one version to another: a line by its scene. */
const LIST_KEYS = {
  scenes: (composition: Composition) => composition.scenes.map((scene) => scene.id),
  voiceover: (composition: Composition) => composition.audio.voiceover.map((line) => line.sceneId),
  media: (composition: Composition) => composition.media.map((asset) => asset.id),
};

/** Every field an edit can change, by its path, with the value `composition` has there. */
function editableFields(composition: Composition): [string, string | number | null][] {
  return [
    ['brand.primaryColor', composition.brand.primaryColor],
    ['brand.backgroundColor', composition.brand.backgroundColor],
    ...composition.scenes.flatMap((scene, i): [string, string | number | null][] => [
      [`scenes.${i}.title`, scene.title], [`scenes.${i}.text`, scene.text], [`scenes.${i}.durationMs`, scene.durationMs],
      [`scenes.${i}.transition.kind`, scene.transition.kind], [`scenes.${i}.transition.durationMs`, scene.transition.durationMs],
      [`scenes.${i}.position`, i + 1], [`scenes.${i}.remove`, null], [`scenes.${i}.voiceover`, null],
    ]),
    ...composition.audio.voiceover.map((line, i): [string, string] => [`voiceover.${i}`, line.text]),
    ...composition.media.map((asset, i): [string, string] => [`media.${i}.url`, asset.url]),
    ['music.bed', composition.audio.music ? 'on' : 'off'],
    ['music.gainDb', composition.audio.music?.gainDb ?? null],
  ];
}

/** The value at a dotted path of nested form values (`scenes.2.title`). */
export function fieldValue(values: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((at, key) => (at && typeof at === 'object' && Object.hasOwn(at, key) ? (at as Record<string, unknown>)[key] : undefined), values);
}

function setField(values: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  const last = keys.pop()!;
  let at = values;
  for (const key of keys) at = (at[key] ??= {}) as Record<string, unknown>;
  at[last] = value;
}

/**
 * Whether a field sent back holds what is stored, as a browser sends it back: a textarea with
 * CRLF line breaks and perhaps without its first one, a single-line input (a title) without any
 * line breaks at all, a colour picker in lower case.
 */
function sameText(path: string, sent: string, kept: string | null): boolean {
  const asSent = (text: string) => {
    const lines = text.replace(/\r\n?/g, '\n').trim();
    if (/\.title$/.test(path)) return lines.replace(/\n/g, '');
    return path.startsWith('brand.') ? lines.toLowerCase() : lines;
  };
  return asSent(sent) === asSent(kept ?? '');
}

const WORDS_ONLY = new Set<Scene['kind']>(['title', 'text', 'outro']);

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
