import type { Brief, MediaItem, Pitch, Shot } from '@vp/contracts';
import { excerptOf } from '../code/excerpt.ts';
import { brandStyle } from './brand.ts';
import { cameraMove, placeOnTimeline, transitionEffects, voiceOffsetMs, type ScenePart } from './choreography.ts';
import { layoutFor } from '../draw/layout.ts';
import { textBox } from '../layout/catalogue.ts';
import { fitsBox } from '../layout/type-scale.ts';
import { sansStack } from '../style/fonts.ts';
import { ASPECT_SIZES } from './frame-size.ts';
import {
  COMPOSITION_VERSION, MAX_MEDIA_PER_SCENE, MAX_SCENES, parseComposition,
  type AudioPlan, type Composition, type MediaPlacement, type Music, type Scene, type SceneKind,
} from './schema.ts';

const WORDS_PER_MINUTE = 165;

const MUSIC_BY_TEMPLATE: Record<Brief['format']['template'], Pick<Music, 'key' | 'bpm' | 'progression'>> = {
  changelog: { key: 'C', bpm: 96, progression: ['I', 'V', 'vi', 'IV'] },
  launch: { key: 'D', bpm: 112, progression: ['vi', 'IV', 'I', 'V'] },
  feature: { key: 'G', bpm: 100, progression: ['I', 'vi', 'IV', 'V'] },
  digest: { key: 'F', bpm: 88, progression: ['I', 'iii', 'IV', 'V'] },
  custom: { key: 'C', bpm: 96, progression: ['I', 'V', 'vi', 'IV'] },
};

/**
 * The project a greenlit pitch becomes: one scene per shot, in order, with the shot's length
 * (a code shot with pictures, two while the project has room for them: see `withCutIn`); the
 * brief's media and code, brand and format; the audio plan from the shots' voiceover lines and
 * the format's sound switches. Every pitch its writer may return fits the project's limits.
 */
export function composeProduction({ brief, pitch }: { brief: Brief; pitch: Pitch }): Composition {
  const shots = [...pitch.shots].sort((a, b) => a.index - b.index);
  const mediaById = new Map(brief.media.map((item) => [item.id, item]));
  const codeByPath = new Map(brief.code.map((file) => [file.path, file]));
  // A pitch has at most 24 shots, each a scene; cut-ins take what is left under the limit, in order.
  let spareScenes = MAX_SCENES - shots.length;

  const { scenes, durationMs } = placeOnTimeline(shots.flatMap((shot, i) => {
    const media = [...new Set(shot.mediaIds)].flatMap((id) => mediaById.get(id) ?? []);
    const code = shot.codePaths.map((path) => codeByPath.get(path)).find((file) => file !== undefined);
    const kind = sceneKind(i, shots.length, media.length > 0, code !== undefined);
    const scene: ScenePart = {
      id: shotSceneId(shot),
      kind,
      durationMs: shot.durationMs,
      title: kind === 'outro' ? signOff(brief, pitch) : shot.title,
      text: shot.text,
      media: kind === 'media' ? placements(media, i, shot.durationMs) : [],
      code: code && kind === 'code' ? excerptOf(code) : null,
    };
    if (kind !== 'code' || spareScenes <= 0) return [scene];
    const parts = withCutIn(scene, media, i, captionFits(brief));
    spareScenes -= parts.length - 1;
    return parts;
  }));

  const used = new Set(scenes.flatMap((scene) => scene.media.map((m) => m.assetId)));
  return parseComposition({
    version: COMPOSITION_VERSION,
    title: pitch.title,
    ...ASPECT_SIZES[brief.format.aspect],
    fps: 30,
    durationMs,
    brand: brandStyle(brief.brand),
    // One asset per id: a brief may name two media alike, and the shots show the one `mediaById` holds.
    media: [...mediaById.values()].filter((item) => used.has(item.id)).map(({ id, kind, url, name }) => ({ id, kind, url, name })),
    scenes,
    audio: audioPlan(brief, pitch, shots, scenes),
  });
}

/** A code shot that also shows media cuts to them for the last part of its time, if both parts have room. */
const CUT_IN_SHARE = 0.4;
const MIN_PART_MS = 1500;

function withCutIn(editor: ScenePart, media: MediaItem[], shotNumber: number, fits: (caption: string) => boolean): ScenePart[] {
  const cutInMs = Math.round(editor.durationMs * CUT_IN_SHARE);
  if (!media.length || cutInMs < MIN_PART_MS || editor.durationMs - cutInMs < MIN_PART_MS) return [editor];
  const description = media[0]?.description?.trim();
  return [
    { ...editor, durationMs: editor.durationMs - cutInMs },
    {
      ...editor, id: `${editor.id}-media`, kind: 'media', durationMs: cutInMs, code: null,
      // The caption says what the picture shows, in the brief's words, when it says so and they fit.
      text: description && fits(description) ? description : editor.text,
      media: placements(media, shotNumber, cutInMs),
    },
  ];
}

/** How long a picture stays on screen at the least: under this, with its crossfade, it is a flash. */
const MIN_PICTURE_MS = 1000;

/**
 * The pictures a scene shows in turn, in the pitch's order. A scene holds as many as each can
 * stay readable for, and never more than six: an editor cuts the rest rather than flick through
 * them, and they stay out of the video rather than crowd the shot.
 */
function placements(media: MediaItem[], shotNumber: number, durationMs: number): MediaPlacement[] {
  const room = Math.min(MAX_MEDIA_PER_SCENE, Math.max(1, Math.floor(durationMs / MIN_PICTURE_MS)));
  return media.slice(0, room).map(({ id }, m) => ({ assetId: id, camera: cameraMove(shotNumber + m) }));
}

/**
 * The end card's headline: the brand, else the video's title (the brand too when it is too long
 * for the headline and the title is not). The last shot's own title names it in the shot list
 * ("Call to action"); what it puts on screen is its text, shown beneath.
 */
export function signOff(brief: Brief, pitch: Pick<Pitch, 'title'>): string {
  const brand = brief.brand.name?.trim();
  if (!brand) return pitch.title;
  const box = textBox('headline', layoutFor(ASPECT_SIZES[brief.format.aspect].width, ASPECT_SIZES[brief.format.aspect].height), sansStack(brief.brand.fontFamily));
  return fitsBox(brand, box) || !fitsBox(pitch.title, box) ? brand : pitch.title;
}

/** Whether a caption fits a caption's box on this brief's frame. */
function captionFits(brief: Brief): (caption: string) => boolean {
  const { width, height } = ASPECT_SIZES[brief.format.aspect];
  const box = textBox('caption', layoutFor(width, height), sansStack(brief.brand.fontFamily));
  return (caption) => fitsBox(caption, box);
}

export const shotSceneId = (shot: Pick<Shot, 'index'>) => `shot-${shot.index}`;

/** The kind of scene a shot opens with: code when it shows a file of the brief, else media, else a title, end card or statement by its place. */
export function shotSceneKind(brief: Brief, shot: Pick<Shot, 'mediaIds' | 'codePaths'>, index: number, count: number): SceneKind {
  const media = new Set(brief.media.map((item) => item.id));
  const code = new Set(brief.code.map((file) => file.path));
  return sceneKind(index, count, shot.mediaIds.some((id) => media.has(id)), shot.codePaths.some((path) => code.has(path)));
}

function sceneKind(index: number, count: number, hasMedia: boolean, hasCode: boolean): SceneKind {
  if (hasCode) return 'code';
  if (hasMedia) return 'media';
  if (index === 0) return 'title';
  if (index === count - 1) return 'outro';
  return 'text';
}

function audioPlan(brief: Brief, pitch: Pitch, shots: Shot[], scenes: Scene[]): AudioPlan {
  const { sound, template } = brief.format;
  // Each shot's line goes on the scene that opens it (a shot cut in two has two scenes).
  const opening = new Map(scenes.map((scene) => [scene.id, scene]));
  const voiceover = sound.voiceover
    ? shots.flatMap((shot) => {
      const scene = opening.get(shotSceneId(shot));
      const text = shot.voiceover?.trim();
      if (!scene || !text) return [];
      return [{ sceneId: scene.id, text, offsetMs: voiceOffsetMs(scene), voice: 'en-us', wordsPerMinute: WORDS_PER_MINUTE }];
    })
    : [];
  return {
    voiceover,
    // Both must want it: a revision that dropped the music keeps the format's switch on.
    music: sound.music && pitch.music !== null ? { ...MUSIC_BY_TEMPLATE[template], gainDb: -6 } : null,
    sfx: sound.sfx ? transitionEffects(scenes) : [],
    loudnessLufs: -16,
  };
}
