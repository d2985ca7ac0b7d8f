import type { Aspect } from '@vp/contracts';

/** Every video is 30 frames per second. */
export const FPS = 30;

export type FrameSize = { width: number; height: number };

/** 1080 pixels on the short side (DECISIONS, Videos). */
export const ASPECT_SIZES: Record<Aspect, FrameSize> = {
  '16:9': { width: 1920, height: 1080 },
  '4:3': { width: 1440, height: 1080 },
  '3:2': { width: 1620, height: 1080 },
  '21:9': { width: 2520, height: 1080 },
  '1:1': { width: 1080, height: 1080 },
  '9:16': { width: 1080, height: 1920 },
  '3:4': { width: 1080, height: 1440 },
  '2:3': { width: 1080, height: 1620 },
  '4:5': { width: 1080, height: 1350 },
};

export const RESOLUTIONS = ['480p', '720p', '1080p', '4K'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

/** The one-call render API's sizes (DECISIONS, Renders). */
export const RESOLUTION_SIZES: Record<Resolution, FrameSize> = {
  '480p': { width: 854, height: 480 },
  '720p': { width: 1280, height: 720 },
  '1080p': { width: 1920, height: 1080 },
  '4K': { width: 3840, height: 2160 },
};

/** Frames in a video of `durationMs`: its length is within half a frame of the duration. */
export function frameCount(durationMs: number): number {
  return Math.round((durationMs * FPS) / 1000);
}
