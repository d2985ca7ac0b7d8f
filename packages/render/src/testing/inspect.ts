import { readFile } from 'node:fs/promises';
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
  return (await audioSamples(file)).reduce((peak, value) => Math.max(peak, Math.abs(value)), 0);
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

/** The soundtrack's loudness as ffmpeg's EBU R128 meter reads it: integrated (LUFS) and true peak (dBTP). */
export async function loudness(file: string): Promise<{ integratedLufs: number; truePeakDb: number }> {
  const readings = (await run('ffmpeg', [
    '-v', 'error', '-i', file, '-vn', '-af', 'ebur128=peak=true:metadata=1,ametadata=mode=print:file=-', '-f', 'null', '-',
  ], { failure: 'no audio' })).toString();
  const last = (key: string) => Number([...readings.matchAll(new RegExp(`lavfi\\.r128\\.${key}=(\\S+)`, 'g'))].at(-1)?.[1]);
  return { integratedLufs: last('I'), truePeakDb: 20 * Math.log10(last('true_peak')) };
}

/** The soundtrack's left channel, decoded at `sampleRate` (a downmix would add the channels up). */
export async function audioSamples(file: string, sampleRate = 8000): Promise<Float32Array> {
  const pcm = await run('ffmpeg', [
    '-v', 'error', '-i', file, '-vn', '-af', 'pan=mono|c0=c0', '-ar', String(sampleRate), '-f', 'f32le', 'pipe:1',
  ], { failure: 'no audio' });
  return new Float32Array(pcm.buffer, pcm.byteOffset, Math.floor(pcm.length / 4));
}

/** The types of an MP4's top-level boxes, in file order ("ftyp", "moov", "mdat"…). */
export async function topLevelBoxes(file: string): Promise<string[]> {
  const data = await readFile(file);
  const boxes: string[] = [];
  for (let at = 0; at + 8 <= data.length;) {
    const size = data.readUInt32BE(at);
    boxes.push(data.toString('latin1', at + 4, at + 8));
    // 1: a 64-bit size follows the type; 0: the box runs to the end of the file.
    const length = size === 1 ? Number(data.readBigUInt64BE(at + 8)) : size === 0 ? data.length - at : size;
    if (length < 8) break;
    at += length;
  }
  return boxes;
}
