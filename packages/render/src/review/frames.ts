import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../process.ts';

export interface Picture {
  width: number;
  height: number;
  /** 1 byte a pixel for gray, 3 for rgb. */
  data: Buffer;
}

/**
 * Decodes the frames at the given times, scaled to `width` × `height`, in one ffmpeg run:
 * each time is its own input, seeked before decoding, so only one picture per time is built.
 * The pictures pass through a folder of their own in `workDir` (a render's work folder, so what
 * a killed render leaves is in one place), else in the OS's temporary folder.
 */
export async function grabFrames(
  file: string, timesMs: number[],
  options: { width: number; height: number; format: 'gray' | 'rgb24'; keyframesOnly?: boolean; signal?: AbortSignal; workDir?: string },
): Promise<Picture[]> {
  if (!timesMs.length) return [];
  const dir = await mkdtemp(join(options.workDir ?? tmpdir(), 'vp-frames-'));
  try {
    // One decoding thread per input: a frame-threaded decoder would decode (and hold) frames past the one asked for.
    // When the times are keyframes, the decoder skips every other frame outright.
    const skip = options.keyframesOnly ? ['-skip_frame', 'nokey'] : [];
    const inputs = timesMs.flatMap((ms) => ['-threads', '1', ...skip, '-ss', (ms / 1000).toFixed(3), '-i', file]);
    const outputs = timesMs.flatMap((_, i) => [
      '-map', `${i}:v:0`, '-frames:v', '1', '-vf', `scale=${options.width}:${options.height}:flags=area`,
      '-pix_fmt', options.format, '-f', 'rawvideo', join(dir, `${i}.raw`),
    ]);
    await run('ffmpeg', ['-v', 'error', '-y', ...inputs, ...outputs], { signal: options.signal, failure: 'Frames could not be read from the video' });
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
