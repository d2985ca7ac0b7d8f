import { brandStyle } from './brand.ts';
import { cameraMove, placeOnTimeline, transitionEffects, type ScenePart } from './choreography.ts';
import { RESOLUTION_SIZES, type Resolution } from './frame-size.ts';
import { COMPOSITION_VERSION, parseComposition, type Composition } from './schema.ts';

export interface ComposeImagesInput {
  /** 1 to 10 images (PNG, JPEG or WebP), in order; `url` is read through `fetchMedia` when rendering. */
  images: { url: string; name?: string }[];
  resolution: Resolution;
  background: 'black' | 'white';
  appName?: string | null;
  accent?: string | null;
  /** Music bed and transition effects; on by default. */
  sound?: { music?: boolean; sfx?: boolean };
}

const INTRO_MS = 2000;
const IMAGE_MS = 3000;
const OUTRO_MS = 1500;

/**
 * The older one-call render API: a title with the app name, each image for 3 s with a
 * slow camera move, and an end card. 2 s + 3 s per image + 1.5 s (5 s to 33.5 s).
 */
export function composeImages(input: ComposeImagesInput): Composition {
  if (input.images.length < 1 || input.images.length > 10) throw new RangeError('composeImages takes 1 to 10 images');
  const appName = input.appName?.trim() || null;
  const media = input.images.map((image, i) => ({
    id: `image-${i + 1}`, kind: 'image' as const, url: image.url, name: image.name?.trim() || `Image ${i + 1}`,
  }));
  const plan: ScenePart[] = [
    { id: 'intro', kind: 'title', durationMs: INTRO_MS, title: appName ?? 'Take a look', text: null, media: [], code: null },
    ...media.map((asset, i) => ({
      id: `scene-${i + 1}`, kind: 'media' as const, durationMs: IMAGE_MS, title: null, text: null,
      media: [{ assetId: asset.id, camera: cameraMove(i) }], code: null,
    })),
    { id: 'outro', kind: 'outro', durationMs: OUTRO_MS, title: appName, text: null, media: [], code: null },
  ];
  const { scenes, durationMs } = placeOnTimeline(plan);
  const background = input.background === 'white' ? '#ffffff' : '#000000';
  const sound = { music: true, sfx: true, ...input.sound };
  return parseComposition({
    version: COMPOSITION_VERSION,
    title: appName ?? 'Images',
    ...RESOLUTION_SIZES[input.resolution],
    fps: 30,
    durationMs,
    brand: brandStyle({ name: appName, primaryColor: input.accent, backgroundColor: background }),
    media,
    scenes,
    audio: {
      voiceover: [],
      music: sound.music ? { key: 'C', bpm: 100, progression: ['I', 'V', 'vi', 'IV'], gainDb: -6 } : null,
      sfx: sound.sfx ? transitionEffects(scenes) : [],
      loudnessLufs: -16,
    },
  });
}
