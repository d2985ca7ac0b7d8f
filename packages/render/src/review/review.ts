import { stat } from 'node:fs/promises';
import { QualityError, type QualityCheck } from '../errors.ts';
import { frameRate, probe, type Probe } from '../probe.ts';
import { grabFrames, lumaDeviation } from './frames.ts';

export interface VideoExpectation {
  width: number;
  height: number;
  durationMs: number;
  /** An AAC stream must be present (default true). */
  audio?: boolean;
  /** Times to sample for blank frames, such as each scene's midpoint. */
  sampleAtMs?: number[];
  /** The sample times are keyframes (the renderer forces them there): only keyframes are decoded. */
  samplesAreKeyframes?: boolean;
}

export interface VideoReview {
  durationMs: number;
  width: number;
  height: number;
  fps: number;
  bytes: number;
  /** Luma deviation of each sampled frame. */
  samples: { atMs: number; deviation: number }[];
}

const FRAME_MS = 1000 / 30;
/** Below this the sampled picture is one flat colour (a title on a plain background is well above 10). */
const BLANK_DEVIATION = 2;
/** Bitrate bounds that no real motion-design video leaves: 8 kbit/s to 80 Mbit/s. */
const MIN_BITS_PER_SECOND = 8_000;
const MAX_BITS_PER_SECOND = 80_000_000;

/**
 * The automatic quality check: via ffprobe, the exact frame size, 30 fps, an H.264 stream
 * (and an AAC one), a length within one frame, a sane file size; and no blank frame at
 * the sampled times. Throws a `QualityError` naming every failed check. The samples are
 * decoded in `workDir` when given (see `grabFrames`).
 */
export async function reviewVideo(
  file: string, expectation: VideoExpectation, options: { signal?: AbortSignal; workDir?: string } = {},
): Promise<VideoReview> {
  const failures: { check: QualityCheck; message: string }[] = [];
  const fail = (check: QualityCheck, message: string) => failures.push({ check, message });
  // The samples are decoded while ffprobe reads the streams: placed within the expected length,
  // since a video of another length fails its duration check whatever they show.
  const times = (expectation.sampleAtMs ?? []).map((ms) => Math.max(0, Math.min(ms, expectation.durationMs - FRAME_MS)));
  const sampled = grabFrames(file, times, {
    width: 96, height: 54, format: 'gray', keyframesOnly: expectation.samplesAreKeyframes, signal: options.signal, workDir: options.workDir,
  });
  sampled.catch(() => {}); // awaited below, before the review ends: its decoder writes in `workDir`
  let info: Probe;
  try {
    info = await probe(file, options.signal);
  } catch (error) {
    await sampled.catch(() => {});
    if (options.signal?.aborted) throw error;
    throw new QualityError([{ check: 'probe', message: 'the file is not a readable video' }]);
  }
  const bytes = (await stat(file)).size;
  const video = info.streams.find((s) => s.codec_type === 'video');
  const audio = info.streams.find((s) => s.codec_type === 'audio');
  const fps = frameRate(video?.avg_frame_rate ?? video?.r_frame_rate);
  const frames = Number(video?.nb_frames);
  const durationMs = Number.isFinite(frames) && frames > 0 ? (frames / fps) * 1000 : Number(info.format.duration ?? 0) * 1000;

  if (!video) fail('video', 'there is no video stream');
  else {
    if (video.codec_name !== 'h264') fail('video', `the video is ${video.codec_name}, not H.264`);
    if (video.pix_fmt !== 'yuv420p') fail('video', `the pixels are ${video.pix_fmt}, not yuv420p`);
    if (video.width !== expectation.width || video.height !== expectation.height) {
      fail('size', `the frame is ${video.width}×${video.height}, not ${expectation.width}×${expectation.height}`);
    }
    if (Math.abs(fps - 30) > 0.01) fail('fps', `the frame rate is ${fps.toFixed(2)}, not 30`);
    if (Math.abs(durationMs - expectation.durationMs) > FRAME_MS) {
      fail('duration', `the video lasts ${(durationMs / 1000).toFixed(3)} s, not ${(expectation.durationMs / 1000).toFixed(3)} s`);
    }
  }
  if (expectation.audio !== false) {
    if (!audio) fail('audio', 'there is no audio stream');
    else if (audio.codec_name !== 'aac') fail('audio', `the audio is ${audio.codec_name}, not AAC`);
  }
  const bitsPerSecond = (bytes * 8) / Math.max(0.001, durationMs / 1000);
  if (bitsPerSecond < MIN_BITS_PER_SECOND || bitsPerSecond > MAX_BITS_PER_SECOND) {
    fail('file size', `the file size (${bytes} bytes) is not plausible for its length`);
  }

  const samples: VideoReview['samples'] = [];
  // Without a video stream there is nothing to sample, and the decoder's failure says nothing new.
  const pictures = video ? await sampled : await sampled.catch(() => []);
  if (video) {
    pictures.forEach((picture, i) => {
      const atMs = times[i] ?? 0;
      const deviation = lumaDeviation(picture);
      samples.push({ atMs, deviation });
      if (picture.data.length < picture.width * picture.height) fail('blank frame', `no frame could be decoded at ${(atMs / 1000).toFixed(2)} s`);
      else if (deviation < BLANK_DEVIATION) fail('blank frame', `the frame at ${(atMs / 1000).toFixed(2)} s is blank`);
    });
  }
  if (failures.length) throw new QualityError(failures);
  return { durationMs, width: video?.width ?? 0, height: video?.height ?? 0, fps, bytes, samples };
}
