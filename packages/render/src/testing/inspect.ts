import { probe } from '../probe.ts';
import { run } from '../process.ts';
import { grabFrames, type Picture } from '../review/frames.ts';
import { toRgb } from '../style/color.ts';

/** Decodes frames at full size as RGB. */
export async function framesAt(file: string, timesMs: number[], size: { width: number; height: number }): Promise<Picture[]> {
  return grabFrames(file, timesMs, { ...size, format: 'rgb24' });
}

/** Share of a picture's pixels within `tolerance` (per channel) of a colour. */
export function shareNear(picture: Picture, hex: string, tolerance = 24): number {
  const { r, g, b } = toRgb(hex);
  let near = 0;
  const pixels = picture.data.length / 3;
  for (let i = 0; i < picture.data.length; i += 3) {
    if (Math.abs((picture.data[i] ?? 0) - r) <= tolerance && Math.abs((picture.data[i + 1] ?? 0) - g) <= tolerance
      && Math.abs((picture.data[i + 2] ?? 0) - b) <= tolerance) near++;
  }
  return near / pixels;
}

/** The loudest sample of the soundtrack, 0 to 1. */
export async function audioPeak(file: string): Promise<number> {
  const pcm = await run('ffmpeg', ['-v', 'error', '-i', file, '-vn', '-ac', '1', '-ar', '8000', '-f', 'f32le', 'pipe:1'], { failure: 'no audio' });
  const samples = new Float32Array(pcm.buffer, pcm.byteOffset, Math.floor(pcm.length / 4));
  return samples.reduce((peak, value) => Math.max(peak, Math.abs(value)), 0);
}

export async function streams(file: string) {
  const info = await probe(file);
  const video = info.streams.find((s) => s.codec_type === 'video');
  const audio = info.streams.find((s) => s.codec_type === 'audio');
  return {
    width: video?.width, height: video?.height, codec: video?.codec_name, pixels: video?.pix_fmt, fps: video?.avg_frame_rate,
    frames: Number(video?.nb_frames), audio: audio?.codec_name, sampleRate: audio?.sample_rate, durationMs: Number(info.format.duration) * 1000,
  };
}
