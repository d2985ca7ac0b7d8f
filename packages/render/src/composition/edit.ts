import { NUL_REFUSED } from '@vp/contracts';
import { z } from 'zod';
import { voiceOffsetMs } from './choreography.ts';
import { transitionEffects } from './compose-production.ts';
import { Composition, parseComposition, retime, TRANSITIONS } from './schema.ts';

/** Text as a person types it: no NUL (PostgreSQL stores none), ends trimmed, a form's CRLF line breaks as LF. */
const Typed = (max: number) =>
  z.string().refine((text) => !text.includes('\0'), NUL_REFUSED).transform((text) => text.replace(/\r\n?/g, '\n').trim()).pipe(z.string().max(max));
const WHOLE_MS = 'a whole number of milliseconds';
/** A number of milliseconds, sent as a number or as a form's text; an empty field is left out. */
const TypedMs = (min: number, max: number) =>
  z.preprocess(
    (value) => (typeof value === 'string' ? (value.trim() === '' ? undefined : Number(value)) : value),
    z.number({ error: (issue) => (issue.code === 'invalid_type' ? WHOLE_MS : undefined) }).int(WHOLE_MS)
      .min(min, `at least ${min} ms`).max(max, `at most ${max} ms`).optional(),
  );
const Hex = z.string().transform((text) => text.trim().toLowerCase()).pipe(z.string().regex(/^#[0-9a-f]{6}$/, 'a colour as #rrggbb'));
/** Fields keyed by their index in the project's list (a form's `scenes.2.title`). */
const ByIndex = <T extends z.ZodType>(item: T) => z.record(z.string().regex(/^(0|[1-9]\d{0,2})$/, 'an index'), item);

/**
 * What a person may change in a project, each field optional (what is left out stays): the
 * brand's colours; each scene's words, length and transition in; each voiceover line's words
 * (emptied, the line is dropped). Media, code, size and the order of scenes stay as made.
 */
export const CompositionEdit = z.object({
  brand: z.object({ primaryColor: Hex.optional(), backgroundColor: Hex.optional(), textColor: Hex.optional() }).optional(),
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
 * The next version of a project: the edit applied to the `stored` one, the scenes retimed, and the sound
 * cues that follow the picture placed again (each voice line after its scene's cut, a whoosh on
 * each transition), as the composer places them. Refused with every issue when the result is
 * not a valid project, or lasts longer than `maxDurationMs` (the length the credits paid for).
 */
export function editComposition(
  stored: unknown,
  input: unknown,
  options: { maxDurationMs: number },
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

  const scenes = base.scenes.map((scene, i) => {
    const change = edit.scenes?.[i];
    if (!change) return scene;
    return {
      ...scene,
      title: change.title === undefined ? scene.title : change.title || null,
      text: change.text === undefined ? scene.text : change.text || null,
      durationMs: change.durationMs ?? scene.durationMs,
      transition: { kind: change.transition?.kind ?? scene.transition.kind, durationMs: change.transition?.durationMs ?? scene.transition.durationMs },
    };
  });
  const timed = retime({ ...base, brand: { ...base.brand, ...edit.brand }, scenes });
  const byId = new Map(timed.scenes.map((scene) => [scene.id, scene]));
  const voiceover = base.audio.voiceover.flatMap((line, i) => {
    const text = edit.voiceover?.[i] ?? line.text;
    const scene = byId.get(line.sceneId);
    return text && scene ? [{ ...line, text, offsetMs: voiceOffsetMs(scene) }] : [];
  });
  const sfx = base.audio.sfx.length ? transitionEffects(timed.scenes) : [];
  const next = { ...timed, audio: { ...timed.audio, voiceover, sfx } };

  const checked = Composition.safeParse(next);
  const issues = checked.success ? [] : checked.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
  if (next.durationMs > options.maxDurationMs) {
    issues.push({
      path: 'durationMs',
      message: `The scenes add up to ${seconds(next.durationMs)}; the video may last at most ${seconds(options.maxDurationMs)}, the length its credits paid for.`,
    });
  }
  return checked.success && !issues.length ? { composition: checked.data } : { issues };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
