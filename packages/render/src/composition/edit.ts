import { NUL_REFUSED } from '@vp/contracts';
import { z } from 'zod';
import { brandStyle } from './brand.ts';
import { transitionEffects, transitionMsBetween, voiceOffsetMs } from './choreography.ts';
import { Composition, parseComposition, retime, TRANSITIONS, type Scene } from './schema.ts';

/** Text as a person types it: no NUL (PostgreSQL stores none), ends trimmed, a form's CRLF line breaks as LF. */
const Typed = (max: number) =>
  z.string().refine((text) => !text.includes('\0'), NUL_REFUSED).transform((text) => text.replace(/\r\n?/g, '\n').trim()).pipe(z.string().max(max));
const WHOLE_MS = 'a whole number of milliseconds';
/** A number of milliseconds, sent as a number or as a form's digits; an empty field is left out. */
const TypedMs = (min: number, max: number) =>
  z.preprocess(
    (value) => (typeof value === 'string' ? (value.trim() === '' ? undefined : /^\s*\d+\s*$/.test(value) ? Number(value) : NaN) : value),
    z.number({ error: (issue) => (issue.code === 'invalid_type' ? WHOLE_MS : undefined) }).int(WHOLE_MS)
      .min(min, `at least ${min} ms`).max(max, `at most ${max} ms`).optional(),
  );
const Hex = z.string().transform((text) => text.trim().toLowerCase()).pipe(z.string().regex(/^#[0-9a-f]{6}$/, 'a colour as #rrggbb'));
/** Fields keyed by their index in the project's list (a form's `scenes.2.title`). */
const ByIndex = <T extends z.ZodType>(item: T) => z.record(z.string().regex(/^(0|[1-9]\d{0,2})$/, 'an index'), item);

/**
 * What a person may change in a project, each field optional (what is left out stays): the
 * accent and background colours (the text's follows the background, as the composer makes it);
 * each scene's words, length and transition in (none into the first); each voiceover line's
 * words (emptied, the line is dropped). Media, code, size and the order of scenes stay as made.
 */
export const CompositionEdit = z.object({
  brand: z.object({ primaryColor: Hex.optional(), backgroundColor: Hex.optional() }).optional(),
  scenes: ByIndex(z.object({
    title: Typed(200).optional(),
    text: Typed(500).optional(),
    durationMs: TypedMs(300, 120_000),
    transition: z.object({ kind: z.enum(TRANSITIONS).optional(), durationMs: TypedMs(0, 2000) }).optional(),
  })).optional(),
  voiceover: ByIndex(Typed(1000)).optional(),
});
export type CompositionEdit = z.infer<typeof CompositionEdit>;

export type EditIssue = { path: string; message: string };
/** The kinds of transition a form offers. */
export { TRANSITIONS };

/**
 * The next version of a project: the edit applied to the `stored` one, the scenes retimed, and
 * the sound cues that follow the picture placed again (each voice line after its scene's cut,
 * with `soundEffects` a whoosh on each transition), as the composer places them. Text sent back
 * as a browser sends the stored text stays as stored: an untouched form changes nothing. Refused
 * with every issue when the result is not a valid project, or lasts longer than `maxDurationMs`
 * (the length the credits paid for).
 */
export function editComposition(
  stored: unknown,
  input: unknown,
  options: { maxDurationMs: number; soundEffects: boolean },
): { composition: Composition } | { issues: EditIssue[] } {
  const base = parseComposition(stored);
  const parsed = CompositionEdit.safeParse(input);
  if (!parsed.success) return { issues: parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })) };
  const edit = parsed.data;
  const unknown = [
    ...Object.keys(edit.scenes ?? {}).filter((i) => !base.scenes[Number(i)]).map((i) => `scenes.${i}`),
    ...Object.keys(edit.voiceover ?? {}).filter((i) => !base.audio.voiceover[Number(i)]).map((i) => `voiceover.${i}`),
  ];
  if (unknown.length) return { issues: unknown.map((path) => ({ path, message: 'The project has nothing at this index.' })) };

  const words = (path: string, sent: string | undefined, kept: string | null) => (sent === undefined || sameText(path, sent, kept) ? kept : sent || null);
  const lengths = base.scenes.map((scene, i) => edit.scenes?.[i]?.durationMs ?? scene.durationMs);
  const scenes = base.scenes.map((scene, i): Scene => {
    const change = edit.scenes?.[i];
    if (!change) return scene;
    // The first scene has no transition in: it is kept as made.
    const into = i > 0 ? change.transition : undefined;
    const kind = into?.kind ?? scene.transition.kind;
    const transitionMs = into?.durationMs ?? scene.transition.durationMs;
    return {
      ...scene,
      title: words(`scenes.${i}.title`, change.title, scene.title),
      text: words(`scenes.${i}.text`, change.text, scene.text),
      durationMs: lengths[i]!,
      // A cut takes no time: both scenes would be on screen at once. Another kind chosen for
      // a cut, its length left at 0, takes the length the composer gives a transition there.
      transition: { kind, durationMs: kind === 'cut' ? 0 : transitionMs || transitionMsBetween([lengths[i - 1] ?? 0, lengths[i]!]) },
    };
  });
  const { primaryColor = base.brand.primaryColor, backgroundColor = base.brand.backgroundColor } = edit.brand ?? {};
  const recoloured = primaryColor !== base.brand.primaryColor || backgroundColor !== base.brand.backgroundColor;
  // New colours as the composer makes a brief's readable: the text's from the background, an accent lost in it lifted.
  const brand = recoloured ? { ...brandStyle({ ...base.brand, primaryColor, backgroundColor }), name: base.brand.name, fontFamily: base.brand.fontFamily } : base.brand;
  const timed = retime({ ...base, brand, scenes });
  const byId = new Map(timed.scenes.map((scene) => [scene.id, scene]));
  const voiceover = base.audio.voiceover.flatMap((line, i) => {
    const text = words(`voiceover.${i}`, edit.voiceover?.[i], line.text);
    const scene = byId.get(line.sceneId);
    return text && scene ? [{ ...line, text, offsetMs: voiceOffsetMs(scene) }] : [];
  });
  const sfx = options.soundEffects ? transitionEffects(timed.scenes) : [];
  const next = { ...timed, audio: { ...timed.audio, voiceover, sfx } };

  const checked = Composition.safeParse(next);
  const issues = checked.success ? [] : checked.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
  next.scenes.forEach((scene, i) => {
    // Words are all a scene of these kinds shows; without them its frames are blank, and the review refuses the video.
    if (WORDS_ONLY.has(scene.kind) && !scene.title && !scene.text) issues.push({ path: `scenes.${i}.title`, message: 'This scene shows only words: give it a heading or a text.' });
  });
  if (next.durationMs > options.maxDurationMs) {
    issues.push({
      path: 'durationMs',
      message: `The scenes add up to ${seconds(next.durationMs)}; the video may last at most ${seconds(options.maxDurationMs)}, the length its credits paid for.`,
    });
  }
  return checked.success && !issues.length ? { composition: checked.data } : { issues };
}

/**
 * What a form made from `stored` changes, moved onto `newer`, a version saved since the form was
 * opened: the fields whose values differ from `stored`'s, at their place in `newer` (scenes keep
 * their places; a voiceover line follows its scene). A browser sends every field, so carrying the
 * untouched ones too would undo what `newer` changed. `lost` counts changed lines `newer` dropped.
 */
export function rebaseEdit(stored: unknown, newer: unknown, input: unknown): { values: Record<string, unknown>; lost: number } {
  const [from, to] = [parseComposition(stored), parseComposition(newer)];
  const values: Record<string, unknown> = {};
  let lost = 0;
  for (const [path, kept] of editableFields(from)) {
    const sent = fieldValue(input, path);
    if (sent === undefined || (typeof sent === 'string' && sameText(path, sent, kept === null ? null : String(kept)))) continue;
    const line = /^voiceover\.(\d+)$/.exec(path);
    const sceneId = line ? from.audio.voiceover[Number(line[1])]?.sceneId : undefined;
    const place = line ? to.audio.voiceover.findIndex((other) => other.sceneId === sceneId) : 0;
    // A line emptied here and dropped there: what the form wanted holds.
    if (place < 0) lost += typeof sent === 'string' && !sent.trim() ? 0 : 1;
    else setField(values, line ? `voiceover.${place}` : path, sent);
  }
  return { values, lost };
}

/** Every field an edit can change, by its path, with the value `composition` has there. */
function editableFields(composition: Composition): [string, string | number | null][] {
  return [
    ['brand.primaryColor', composition.brand.primaryColor],
    ['brand.backgroundColor', composition.brand.backgroundColor],
    ...composition.scenes.flatMap((scene, i): [string, string | number | null][] => [
      [`scenes.${i}.title`, scene.title], [`scenes.${i}.text`, scene.text], [`scenes.${i}.durationMs`, scene.durationMs],
      [`scenes.${i}.transition.kind`, scene.transition.kind], [`scenes.${i}.transition.durationMs`, scene.transition.durationMs],
    ]),
    ...composition.audio.voiceover.map((line, i): [string, string] => [`voiceover.${i}`, line.text]),
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
