import { createCanvas, ImageData } from '../canvas.ts';
import { frameRate, probe } from '../probe.ts';
import { run } from '../process.ts';
import { font, sansStack } from '../style/fonts.ts';
import type { Picture } from './frames.ts';

/** A frame of a video, decoded as RGB, and its time. */
export type TimedFrame = { atMs: number; picture: Picture };

/**
 * The frames of a video every `everyMs` (0.5 s by default), from its first, decoded as RGB at
 * `width` pixels wide, or with its longer side `longSide` pixels (the video's own size by
 * default), in one ffmpeg run.
 */
export async function framesEvery(file: string, options: { everyMs?: number; width?: number; longSide?: number; signal?: AbortSignal } = {}): Promise<TimedFrame[]> {
  const everyMs = options.everyMs ?? 500;
  const info = await probe(file, options.signal);
  const video = info.streams.find((stream) => stream.codec_type === 'video');
  if (!video?.width || !video.height) throw new Error(`${file} has no video stream`);
  const fromLongSide = options.longSide && (options.longSide * video.width) / Math.max(video.width, video.height);
  const width = Math.round((options.width ?? fromLongSide ?? video.width) / 2) * 2;
  const height = Math.round((width * video.height) / video.width / 2) * 2;
  const durationMs = Number(info.format.duration) * 1000;
  const times = Array.from({ length: Math.max(1, Math.floor((durationMs - 1) / everyMs) + 1) }, (_, i) => i * everyMs);
  // Every n-th frame from the first: the frame that starts at each time (the renderer's videos have a constant rate).
  const every = Math.max(1, Math.round((everyMs * frameRate(video.avg_frame_rate)) / 1000));
  const raw = await run('ffmpeg', [
    '-v', 'error', '-i', file, '-an', '-vf', `select='not(mod(n\\,${every}))',scale=${width}:${height}:flags=area,format=rgb24`,
    '-fps_mode', 'passthrough', '-f', 'rawvideo', 'pipe:1',
  ], { signal: options.signal, failure: 'The video could not be read' });
  const bytes = width * height * 3;
  return times.slice(0, Math.floor(raw.length / bytes)).map((atMs, i) => ({ atMs, picture: { width, height, data: raw.subarray(i * bytes, (i + 1) * bytes) } }));
}

/**
 * A contact sheet: the frames in rows of `columns`, each with its time beneath it, on a dark
 * page, as PNG; a video at a glance.
 */
export async function contactSheet(frames: TimedFrame[], options: { columns?: number; title?: string } = {}): Promise<Buffer> {
  const first = frames[0]?.picture;
  if (!first) throw new Error('A contact sheet needs at least one frame');
  const columns = Math.min(frames.length, options.columns ?? (first.width >= first.height ? 6 : 10));
  const gap = 8;
  const label = 22;
  const header = options.title ? 40 : 0;
  const rows = Math.ceil(frames.length / columns);
  const canvas = createCanvas(columns * (first.width + gap) + gap, header + rows * (first.height + label + gap) + gap);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#15181d';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  const family = sansStack(null);
  if (options.title) {
    ctx.font = font(20, family, 700);
    ctx.fillStyle = '#f5f7fa';
    ctx.textBaseline = 'middle';
    ctx.fillText(options.title, gap, header / 2 + gap / 2);
  }
  frames.forEach(({ atMs, picture }, i) => {
    const x = gap + (i % columns) * (first.width + gap);
    const y = header + gap + Math.floor(i / columns) * (first.height + label + gap);
    ctx.putImageData(new ImageData(rgba(picture), picture.width, picture.height), x, y);
    ctx.font = font(14, family, 500);
    ctx.fillStyle = '#c9d1d9';
    ctx.textBaseline = 'top';
    ctx.fillText(`${(atMs / 1000).toFixed(1)} s`, x, y + picture.height + 4);
  });
  return canvas.encode('png');
}

function rgba(picture: Picture): Uint8ClampedArray {
  const pixels = picture.width * picture.height;
  const out = new Uint8ClampedArray(pixels * 4);
  for (let i = 0; i < pixels; i++) {
    out[i * 4] = picture.data[i * 3]!;
    out[i * 4 + 1] = picture.data[i * 3 + 1]!;
    out[i * 4 + 2] = picture.data[i * 3 + 2]!;
    out[i * 4 + 3] = 255;
  }
  return out;
}
