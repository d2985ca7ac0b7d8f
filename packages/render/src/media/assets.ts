import { join } from 'node:path';
import type { Canvas } from '../canvas.ts';
import type { Composition } from '../composition/schema.ts';
import { layoutFor } from '../draw/layout.ts';
import { checkVideo, decodeImage, isAnimatedGif, type MovingType, type VideoFile } from './decode.ts';
import { DEFAULT_MEDIA_LIMITS, describe, download, mediaFailure, type FetchMedia, type MediaLimit, type MediaRole } from './fetch-media.ts';

export interface Assets {
  /** Pictures decoded and scaled to the largest size a scene draws them at. */
  images: Map<string, Canvas>;
  /** Videos, and animated GIFs given as pictures: both play. */
  videos: Map<string, VideoFile>;
  logo: Canvas | null;
}

export interface LoadAssetsOptions {
  fetchMedia: FetchMedia;
  /** Where downloaded videos are written. */
  dir: string;
  limits?: Partial<Record<MediaRole, MediaLimit>>;
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
  /** How long ffprobe and ffmpeg may take to check one moving medium (tests shorten it). */
  checkTimeoutMs?: number;
}

/**
 * A moving medium's checks (is a GIF animated; can a video be decoded) take seconds. A crafted
 * file that holds ffprobe or ffmpeg longer fails the production, naming it, instead of stalling
 * the render until its watchdog retries it to no end.
 */
const CHECK_TIMEOUT_MS = 60_000;

/** Headroom for camera moves: a picture is kept a little larger than the panel it fills. */
const ZOOM_HEADROOM = 1.2;
const PARALLEL_DOWNLOADS = 3;
/** A video is held whole until it is written to disk, at up to 250 MB: one at a time, beside the pictures. */
const PARALLEL_VIDEOS = 1;

/** Downloads, checks and decodes every medium the scenes use, and the logo. */
export async function loadAssets(composition: Composition, options: LoadAssetsOptions): Promise<Assets> {
  const limits = { ...DEFAULT_MEDIA_LIMITS, ...options.limits };
  const layout = layoutFor(composition.width, composition.height);
  const pictureBox = { width: layout.content.width * ZOOM_HEADROOM, height: layout.content.height * ZOOM_HEADROOM };
  const used = new Set(composition.scenes.flatMap((scene) => scene.media.map((m) => m.assetId)));
  const assets: Assets = { images: new Map(), videos: new Map(), logo: null };

  // The first failure stops the other jobs: the render fails anyway.
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  const media = composition.media.filter((asset) => used.has(asset.id));
  const job = (asset: (typeof media)[number], i: number) => async () => {
    const subject = describe(asset.kind, asset.id, asset.url, asset.name);
    const { body, type } = await download(subject, asset.kind, options.fetchMedia, limits[asset.kind], signal);
    const checkMs = options.checkTimeoutMs ?? CHECK_TIMEOUT_MS;
    const checking = AbortSignal.any([signal, AbortSignal.timeout(checkMs)]);
    try {
      // A video's type is one `download` accepts for a video: an MP4, QuickTime or WebM file.
      const moving = asset.kind === 'video' || (type === 'gif' && await isAnimatedGif(body, checking));
      if (moving) assets.videos.set(asset.id, await checkVideo(body, type as MovingType, join(options.dir, `video-${i}.${type}`), subject, checking));
      else assets.images.set(asset.id, await decodeImage(body, type, subject, pictureBox));
    } catch (error) {
      if (!checking.aborted || signal.aborted) throw error;
      throw mediaFailure(subject, `could not be checked within ${checkMs / 1000} s: it is not a file that can be played`, { cause: error });
    }
  };
  const videoJobs = media.flatMap((asset, i) => (asset.kind === 'video' ? [job(asset, i)] : []));
  // Pictures (an animated GIF among them, at most 25 MB) and the logo.
  const pictureJobs: (() => Promise<void>)[] = media.flatMap((asset, i) => (asset.kind === 'video' ? [] : [job(asset, i)]));
  const logoUrl = composition.brand.logoUrl;
  if (logoUrl) {
    pictureJobs.push(async () => {
      const subject = describe('logo', 'logo', logoUrl);
      const { body, type } = await download(subject, 'logo', options.fetchMedia, limits.logo, signal);
      const side = 640 * layout.unit;
      assets.logo = await decodeImage(body, type, subject, { width: side, height: side });
    });
  }

  let finished = 0;
  const total = pictureJobs.length + videoJobs.length;
  const failures: unknown[] = [];
  const worker = async (queue: (() => Promise<void>)[]) => {
    for (let next = queue.shift(); next && !failures.length; next = queue.shift()) {
      options.signal?.throwIfAborted();
      await next();
      options.onProgress?.(++finished / total);
    }
  };
  const videoLanes = Math.min(PARALLEL_VIDEOS, videoJobs.length);
  const lanes = [
    ...Array.from({ length: videoLanes }, () => videoJobs),
    ...Array.from({ length: Math.min(PARALLEL_DOWNLOADS - videoLanes, pictureJobs.length) }, () => pictureJobs),
  ];
  // Every job has ended before the first failure is reported: none still writes into `dir`
  // while the caller removes it, and the failure is that medium's, not one it caused.
  await Promise.all(lanes.map((queue) => worker(queue).catch((error: unknown) => {
    failures.push(error);
    stop.abort();
  })));
  if (failures.length) throw failures[0];
  return assets;
}

/** Each medium's size as drawn: a picture's decoded size, a clip's upright frame size. */
export function pictureSizes(assets: Assets): Map<string, { width: number; height: number }> {
  return new Map([
    ...[...assets.images].map(([id, canvas]) => [id, { width: canvas.width, height: canvas.height }] as const),
    ...[...assets.videos].map(([id, video]) => [id, { width: video.width, height: video.height }] as const),
  ]);
}
