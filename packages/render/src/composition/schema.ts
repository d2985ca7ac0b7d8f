import { MEDIA_URL_MAX_LENGTH } from '@vp/contracts';
import { z } from 'zod';
import { CompositionError } from '../errors.ts';

/**
 * The editable project: everything needed to export the same video again. Plain values,
 * stable ids, times in milliseconds; a person can change a text, a colour, a duration or
 * a transition and re-export. Bump `version` when a change is not backwards compatible.
 */
export const COMPOSITION_VERSION = 1;

const Id = z.string().min(1).max(80);
const Hex = z.string().regex(/^#[0-9a-f]{6}$/, 'a colour as #rrggbb');
const Ms = z.int().min(0);

export const BrandStyle = z.object({
  name: z.string().max(120).nullable(),
  /** Accent: bars, highlights, progress. */
  primaryColor: Hex,
  backgroundColor: Hex,
  /** Chosen for contrast with the background. */
  textColor: Hex,
  /** The family asked for; the renderer falls back to an installed sans-serif when it is missing. */
  fontFamily: z.string().max(120).nullable(),
  logoUrl: z.string().max(MEDIA_URL_MAX_LENGTH).nullable(),
});
export type BrandStyle = z.infer<typeof BrandStyle>;

export const MediaAsset = z.object({
  id: Id,
  kind: z.enum(['image', 'video']),
  url: z.string().min(1).max(MEDIA_URL_MAX_LENGTH),
  name: z.string().min(1).max(200),
});
export type MediaAsset = z.infer<typeof MediaAsset>;

/** A point of a camera move over a picture: zoom 1 fills the frame; x and y pan from -1 to 1. */
export const CameraPoint = z.object({ zoom: z.number().min(1).max(2), x: z.number().min(-1).max(1), y: z.number().min(-1).max(1) });
export const MediaPlacement = z.object({
  assetId: Id,
  /** Ken Burns: from the start of the scene to its end. */
  camera: z.object({ from: CameraPoint, to: CameraPoint }),
});
export type MediaPlacement = z.infer<typeof MediaPlacement>;

export const CodeLine = z.object({
  /** Line number in the new file, or in the old file for a removed line. */
  number: z.int().min(1).nullable(),
  text: z.string().max(2000),
  change: z.enum(['added', 'removed', 'context']),
});
export type CodeLine = z.infer<typeof CodeLine>;

export const CodeExcerpt = z.object({
  path: z.string().min(1).max(500),
  /** A shiki language id; `text` when unknown. */
  language: z.string().min(1).max(60),
  status: z.enum(['added', 'modified', 'removed', 'renamed']).nullable(),
  additions: z.int().min(0),
  deletions: z.int().min(0),
  lines: z.array(CodeLine).max(400),
  /** Index into `lines` the editor scrolls to: the first changed line. */
  focusLine: z.int().min(0),
  /** Shown instead of lines when the source was not sent. */
  note: z.string().max(1500).nullable(),
});
export type CodeExcerpt = z.infer<typeof CodeExcerpt>;

export const TRANSITIONS = ['cut', 'fade', 'slide', 'wipe', 'zoom'] as const;
export const Transition = z.object({
  kind: z.enum(TRANSITIONS),
  /** Centred on the cut: half before the scene starts, half after. */
  durationMs: z.int().min(0).max(2000),
});
export type Transition = z.infer<typeof Transition>;

/** More pictures than this in one scene is a contact sheet, not a shot. */
export const MAX_MEDIA_PER_SCENE = 6;
export const MAX_SCENES = 40;

export const SCENE_KINDS = ['title', 'text', 'media', 'code', 'outro'] as const;
export type SceneKind = (typeof SCENE_KINDS)[number];

export const Scene = z.object({
  id: Id,
  kind: z.enum(SCENE_KINDS),
  startMs: Ms,
  durationMs: z.int().min(300).max(120_000),
  /** The heading on screen. */
  title: z.string().max(200).nullable(),
  /** Further on-screen text: a subtitle, a caption, a line of copy. */
  text: z.string().max(500).nullable(),
  media: z.array(MediaPlacement).max(MAX_MEDIA_PER_SCENE),
  code: CodeExcerpt.nullable(),
  /** Into this scene from the one before; ignored on the first scene. */
  transition: Transition,
});
export type Scene = z.infer<typeof Scene>;

export const VoiceLine = z.object({
  sceneId: Id,
  text: z.string().min(1).max(1000),
  /** From the start of the scene. */
  offsetMs: Ms,
  /** An espeak-ng voice, such as `en-us` or `en-gb`. */
  voice: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_+-]{0,39}$/),
  /** Speaking rate; raised at render time when the line would run into the next one or past the end. */
  wordsPerMinute: z.int().min(80).max(450),
});
export type VoiceLine = z.infer<typeof VoiceLine>;

export const Music = z.object({
  /** A soft synthesised bed: chords (roman numerals of a major key) at a tempo. */
  key: z.enum(['C', 'D', 'E', 'F', 'G', 'A', 'B']),
  bpm: z.int().min(60).max(160),
  progression: z.array(z.enum(['I', 'ii', 'iii', 'IV', 'V', 'vi'])).min(1).max(16),
  gainDb: z.number().min(-40).max(0),
});
export type Music = z.infer<typeof Music>;

export const Sfx = z.object({
  kind: z.enum(['whoosh', 'impact']),
  sceneId: Id,
  /** From the start of the scene; negative to lead into it. */
  offsetMs: z.int().min(-2000).max(120_000),
  gainDb: z.number().min(-40).max(0),
});
export type Sfx = z.infer<typeof Sfx>;

export const AudioPlan = z.object({
  /** At most one line a scene, and an effect or two. */
  voiceover: z.array(VoiceLine).max(MAX_SCENES),
  music: Music.nullable(),
  sfx: z.array(Sfx).max(2 * MAX_SCENES),
  /** Integrated loudness of the mix (EBU R128). */
  loudnessLufs: z.number().min(-30).max(-8),
});
export type AudioPlan = z.infer<typeof AudioPlan>;

export const Composition = z
  .object({
    version: z.literal(COMPOSITION_VERSION),
    title: z.string().min(1).max(200),
    width: z.int().min(64).max(4096).multipleOf(2),
    height: z.int().min(64).max(4096).multipleOf(2),
    fps: z.literal(30),
    durationMs: z.int().min(500).max(600_000),
    brand: BrandStyle,
    media: z.array(MediaAsset).max(40),
    scenes: z.array(Scene).min(1).max(MAX_SCENES),
    audio: AudioPlan,
  })
  .superRefine((composition, ctx) => {
    const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
    let expectedStart = 0;
    const ids = new Set<string>();
    const assets = new Set<string>();
    composition.media.forEach((asset, index) => {
      if (assets.has(asset.id)) issue(['media', index, 'id'], `Duplicate media id ${asset.id}`);
      assets.add(asset.id);
    });
    composition.scenes.forEach((scene, index) => {
      if (scene.startMs !== expectedStart) issue(['scenes', index, 'startMs'], `Scenes follow each other: expected ${expectedStart}`);
      expectedStart = scene.startMs + scene.durationMs;
      if (ids.has(scene.id)) issue(['scenes', index, 'id'], `Duplicate scene id ${scene.id}`);
      // Half of a transition plays before the cut and half after: each neighbour must hold it.
      const before = composition.scenes[index - 1];
      const room = before ? Math.min(before.durationMs, scene.durationMs) : Infinity;
      if (scene.transition.durationMs > room) issue(['scenes', index, 'transition', 'durationMs'], `A transition lasts at most as long as the scenes either side of it: ${room} ms here`);
      ids.add(scene.id);
      // The editor scrolls to it; an excerpt without lines (a note instead) has line 0.
      if (scene.code && scene.code.focusLine > Math.max(0, scene.code.lines.length - 1)) {
        issue(['scenes', index, 'code', 'focusLine'], `The focus line is one of the ${scene.code.lines.length} lines`);
      }
      scene.media.forEach((placement, m) => {
        if (!assets.has(placement.assetId)) issue(['scenes', index, 'media', m, 'assetId'], `Unknown media ${placement.assetId}`);
      });
    });
    if (expectedStart !== composition.durationMs) issue(['durationMs'], `The scenes add up to ${expectedStart} ms`);
    composition.audio.voiceover.forEach((line, i) => {
      if (!ids.has(line.sceneId)) issue(['audio', 'voiceover', i, 'sceneId'], `Unknown scene ${line.sceneId}`);
    });
    composition.audio.sfx.forEach((effect, i) => {
      if (!ids.has(effect.sceneId)) issue(['audio', 'sfx', i, 'sceneId'], `Unknown scene ${effect.sceneId}`);
    });
  });
export type Composition = z.infer<typeof Composition>;

/** The project checked against its schema; what is wrong is named in words, the full list kept in `details`. */
export function parseComposition(value: unknown): Composition {
  const parsed = Composition.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new CompositionError(`The project is not valid: ${issue ? `${issue.path.join('.') || 'composition'}: ${issue.message}` : 'unknown problem'}`, parsed.error.message);
}

/** Recomputes every `startMs` and the total after a person changed durations or the order of scenes. */
export function retime(composition: Composition): Composition {
  let start = 0;
  const scenes = composition.scenes.map((scene) => {
    const placed = { ...scene, startMs: start };
    start += scene.durationMs;
    return placed;
  });
  return { ...composition, scenes, durationMs: start };
}
