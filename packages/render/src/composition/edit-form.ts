import { MediaItem, StorableText } from '@vp/contracts';
import { z } from 'zod';
import { MAX_SCENES, TRANSITIONS } from './schema.ts';

/**
 * The fields of a project's edit form, as a browser or a program sends them: each parsed into
 * the value an edit means, and named by its path (`scenes.2.title`) when it cannot be.
 */

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

/** A refused field, by its path on the form, and why. */
export type EditIssue = { path: string; message: string };

/** The value at a dotted path of nested form values (`scenes.2.title`). */
export function fieldValue(values: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((at, key) => (at && typeof at === 'object' && Object.hasOwn(at, key) ? (at as Record<string, unknown>)[key] : undefined), values);
}

/** Sets the value at a dotted path, making the objects on the way. */
export function setField(values: Record<string, unknown>, path: string, value: unknown): void {
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
export function sameText(path: string, sent: string, kept: string | null): boolean {
  const asSent = (text: string) => {
    const lines = text.replace(/\r\n?/g, '\n').trim();
    if (/\.title$/.test(path)) return lines.replace(/\n/g, '');
    return path.startsWith('brand.') ? lines.toLowerCase() : lines;
  };
  return asSent(sent) === asSent(kept ?? '');
}
