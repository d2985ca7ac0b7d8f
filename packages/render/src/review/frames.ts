import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../process.ts';

/** Half a frame at 30 fps, in seconds: how far a keyframe may sit from the time asked for. */
const HALF_FRAME_S = (1 / 60).toFixed(4);

export interface Picture {
  width: number;
  height: number;
  /** 1 byte a pixel for gray, 3 for rgb. */
  data: Buffer;
}

/**
 * Decodes the frames at the given times, scaled to `width` × `height`, in one ffmpeg run.
 * When the times are keyframes, the file is read once and only its keyframes are decoded; each
 * time takes the keyframe within half a frame of it, and a time with none gets an empty picture.
 * Otherwise each time is its own input, seeked before decoding, so only one picture per time is
 * built. The pictures pass through a folder of their own in `workDir` (a render's work folder, so
 * what a killed render leaves is in one place), else in the OS's temporary folder.
 */
export async function grabFrames(
  file: string, timesMs: number[],
  options: { width: number; height: number; format: 'gray' | 'rgb24'; keyframesOnly?: boolean; signal?: AbortSignal; workDir?: string },
): Promise<Picture[]> {
  if (!timesMs.length) return [];
  const dir = await mkdtemp(join(options.workDir ?? tmpdir(), 'vp-frames-'));
  try {
    const scale = `scale=${options.width}:${options.height}:flags=area,format=${options.format}`;
    const output = (i: number) => ['-frames:v', '1', '-f', 'rawvideo', join(dir, `${i}.raw`)];
    const args = options.keyframesOnly
      ? [
        // The decoder skips every frame but the keyframes; each time's branch keeps the one at that time.
        '-skip_frame', 'nokey', '-i', file, '-filter_complex', [
          `[0:v]split=${timesMs.length}${timesMs.map((_, i) => `[s${i}]`).join('')}`,
          ...timesMs.map((ms, i) => `[s${i}]select='lt(abs(t-${(ms / 1000).toFixed(4)}),${HALF_FRAME_S})',${scale}[o${i}]`),
        ].join(';'),
        ...timesMs.flatMap((_, i) => ['-map', `[o${i}]`, '-fps_mode', 'passthrough', ...output(i)]),
      ]
      : [
        // One decoding thread per input: a frame-threaded decoder would decode (and hold) frames past the one asked for.
        ...timesMs.flatMap((ms) => ['-threads', '1', '-ss', (ms / 1000).toFixed(3), '-i', file]),
        ...timesMs.flatMap((_, i) => ['-map', `${i}:v:0`, '-vf', scale, ...output(i)]),
      ];
    await run('ffmpeg', ['-v', 'error', '-y', ...args], { signal: options.signal, failure: 'Frames could not be read from the video' });
    return await Promise.all(timesMs.map(async (_, i) => ({
      width: options.width, height: options.height, data: await readFile(join(dir, `${i}.raw`)).catch(() => Buffer.alloc(0)),
    })));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Standard deviation of a gray picture's values: near 0 for a frame of one flat colour. */
export function lumaDeviation(picture: Picture): number {
  const { data } = picture;
  let sum = 0;
  let squares = 0;
  for (const value of data) {
    sum += value;
    squares += value * value;
  }
  const mean = sum / Math.max(1, data.length);
  return Math.sqrt(Math.max(0, squares / Math.max(1, data.length) - mean * mean));
}
