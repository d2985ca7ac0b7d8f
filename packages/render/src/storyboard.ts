import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createCanvas } from './canvas.ts';
import { FPS } from './composition/frame-size.ts';
import { parseComposition, type Composition } from './composition/schema.ts';
import { Compositor } from './draw/compositor.ts';
import { themeFor } from './draw/theme.ts';
import { loadAssets, pictureSizes } from './media/assets.ts';
import { publicMediaFetcher, type FetchMedia, type MediaLimit, type MediaRole } from './media/fetch-media.ts';
import { planComposition } from './plan/plan.ts';

export interface StoryboardOptions {
  /** A folder for the clips a still needs a frame of; a subfolder is made in it and removed afterwards. */
  workDir: string;
  /** How media URLs are read; defaults to fetching from public addresses only. */
  fetchMedia?: FetchMedia;
  mediaLimits?: Partial<Record<MediaRole, MediaLimit>>;
  /** JPEG (the default, for e-mails and pages) or PNG. */
  format?: 'jpeg' | 'png';
  /** The stills' width in pixels (the height follows the frame's shape); the video's own by default. */
  width?: number;
  /** JPEG quality, 0 to 100. */
  quality?: number;
  signal?: AbortSignal;
}

/** One still of a storyboard: a scene at its key moment. */
export interface Still {
  /** The scene's id: a pitch's shot N is scene `shot-N` (and `shot-N-media` for the pictures a code shot cuts to). */
  sceneId: string;
  /** When the frame starts in the video, in whole milliseconds (never past it: a seek to it lands on the frame). */
  atMs: number;
  frame: number;
  image: Buffer;
  mime: 'image/jpeg' | 'image/png';
  width: number;
  height: number;
}

/**
 * One still per scene, each the frame the video will show at that scene's key moment (when
 * everything has come in), drawn by the renderer itself: the same plan, painters and pixels as
 * the render, without drawing the frames between or encoding any. Media are fetched and decoded
 * as a render does; a clip is decoded from where the video will be in it.
 */
export async function drawStoryboard(input: Composition, options: StoryboardOptions): Promise<Still[]> {
  const composition = parseComposition(input);
  await mkdir(options.workDir, { recursive: true });
  const dir = await mkdtemp(join(options.workDir, 'storyboard-'));
  try {
    const assets = await loadAssets(composition, {
      fetchMedia: options.fetchMedia ?? publicMediaFetcher(), dir, limits: options.mediaLimits, signal: options.signal,
    });
    const plan = await planComposition(composition, themeFor(composition.brand, assets.logo), pictureSizes(assets));
    const format = options.format ?? 'jpeg';
    const width = Math.min(composition.width, Math.max(16, Math.round(options.width ?? composition.width)));
    const height = Math.max(2, Math.round((width / composition.width) * composition.height));
    const stills: Still[] = [];
    for (const scene of plan.scenes) {
      options.signal?.throwIfAborted();
      const frame = Math.min(plan.frames - 1, Math.round(((scene.start + scene.keyMoment) * FPS) / 1000));
      const compositor = new Compositor(plan, assets, options.signal, true);
      try {
        await compositor.draw(frame, { whole: true });
        const image = await encode(compositor.canvas, width, height, format, options.quality ?? 85);
        stills.push({ sceneId: scene.scene.id, atMs: Math.floor((frame * 1000) / FPS), frame, image, mime: `image/${format}`, width, height });
      } finally {
        compositor.dispose();
      }
    }
    return stills;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function encode(source: Compositor['canvas'], width: number, height: number, format: 'jpeg' | 'png', quality: number): Promise<Buffer> {
  let canvas = source;
  if (width !== source.width) {
    canvas = createCanvas(width, height);
    const ctx = canvas.getContext('2d', { alpha: false });
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(source, 0, 0, width, height);
  }
  return format === 'png' ? canvas.encode('png') : canvas.encode('jpeg', quality);
}
