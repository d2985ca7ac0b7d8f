import { writeFile } from 'node:fs/promises';
import { createCanvas, loadImage, type Canvas } from '../canvas.ts';
import { RenderError, type MediaError } from '../errors.ts';
import { probe, type ProbeStream } from '../probe.ts';
import { run } from '../process.ts';
import { mediaFailure, type MediaSubject } from './fetch-media.ts';
import { imageDimensions, MAX_PICTURE_PIXELS, MAX_VIDEO_PIXELS, type SniffedType } from './sniff.ts';

/** A moving picture's sniffed type: a video, or an animated GIF. */
export type MovingType = Extract<SniffedType, 'mp4' | 'quicktime' | 'webm' | 'gif'>;

/**
 * The ffmpeg demuxer each moving type is read with. Told, ffmpeg never picks one from the
 * bytes, where a playlist or manifest that passes for a video would have it read other files.
 */
const DEMUXERS: Record<MovingType, string> = { mp4: 'mov', quicktime: 'mov', webm: 'matroska', gif: 'gif' };

export interface VideoFile {
  file: string;
  /** The ffmpeg demuxer every read of the file is told to use (see `DEMUXERS`). */
  format: string;
  width: number;
  height: number;
  durationMs: number;
  /** HDR pictures (PQ or HLG, as phones record by default): tone-mapped when decoded. */
  hdr: boolean;
  /** The colour primaries and YUV matrix the file states; null where it states none. */
  primaries: string | null;
  matrix: string | null;
  /** Named in a failure to decode it while it is drawn. */
  subject: MediaSubject;
}

const HDR_TRANSFERS = new Set(['smpte2084', 'arib-std-b67']);
/** Why a video that passed its checks cannot be used: a medium's failure, not a try's. */
export const UNDECODABLE_VIDEO = 'could not be decoded: it is not a video that can be played';

function failure(subject: MediaSubject, reason: string, details: string | null = null, cause?: unknown): MediaError {
  return mediaFailure(subject, reason, { details, cause });
}

/**
 * A picture is decoded at full size before it is scaled: up to 240 MB for the 60 million pixels
 * allowed. Decodes take turns across the process, so the pictures of a brief (or of renders
 * running side by side) never need their full size at once.
 */
let decoding: Promise<unknown> = Promise.resolve();
function inTurn<T>(work: () => Promise<T>): Promise<T> {
  const turn = decoding.then(work);
  decoding = turn.catch(() => {});
  return turn;
}

/** An empty source frees a picture's decoded pixels now, not when V8 collects it (it does not know their size). */
const NO_SOURCE = new Uint8Array(0);

/**
 * Decodes a picture and scales it to fit `box`, once, so each frame draws a picture no larger
 * than it needs: a bitmap only ever down, an SVG (often a logo drawn at 24 × 24) up too, since
 * it is drawn from its vectors and stays sharp at any size.
 */
export async function decodeImage(body: Buffer, type: SniffedType, subject: MediaSubject, box: { width: number; height: number }): Promise<Canvas> {
  const damaged = 'could not be decoded: the file is damaged or not a picture';
  const tooLarge = ({ width, height }: { width: number; height: number }) => {
    if (width * height > MAX_PICTURE_PIXELS) throw failure(subject, `is too large to use: ${width} × ${height} pixels`);
  };
  // A bitmap's size is read from its header before it is decoded; an SVG is drawn from its vectors at the size shown.
  const declared = imageDimensions(body, type);
  if (declared) tooLarge(declared);
  else if (type !== 'svg') throw failure(subject, damaged);
  return inTurn(async () => {
    let image: Awaited<ReturnType<typeof loadImage>>;
    try {
      image = await loadImage(body);
    } catch (error) {
      throw failure(subject, damaged, String(error), error);
    }
    try {
      if (!image.width || !image.height) throw failure(subject, 'could not be decoded: it has no size');
      if (type !== 'svg') tooLarge(image);
      const fit = Math.min(box.width / image.width, box.height / image.height);
      const scale = type === 'svg' ? fit : Math.min(1, fit);
      const canvas = createCanvas(Math.max(1, Math.round(image.width * scale)), Math.max(1, Math.round(image.height * scale)));
      const ctx = canvas.getContext('2d');
      ctx.imageSmoothingQuality = 'high';
      ctx.drawImage(image, 0, 0, canvas.width, canvas.height);
      return canvas;
    } finally {
      image.src = NO_SOURCE;
    }
  });
}

/**
 * Whether a GIF has more than one frame: an animation (a screen capture, as READMEs are full
 * of) plays as a video, a still one is drawn as a picture. A GIF ffprobe cannot read is left
 * to the picture decoder, which explains the failure.
 */
export async function isAnimatedGif(body: Buffer, signal?: AbortSignal): Promise<boolean> {
  const frames = await run('ffprobe', [
    '-v', 'error', '-count_packets', '-select_streams', 'v:0', '-show_entries', 'stream=nb_read_packets', '-of', 'csv=p=0', '-f', DEMUXERS.gif, '-i', 'pipe:0',
  ], { signal, failure: 'The GIF could not be read', input: body }).catch((error: unknown) => {
    if (signal?.aborted) throw error;
    return null;
  });
  return Number(frames?.toString().trim()) > 1;
}

/** Writes a downloaded video to disk and checks that ffmpeg can decode a picture from it. */
export async function checkVideo(body: Buffer, type: MovingType, file: string, subject: MediaSubject, signal?: AbortSignal): Promise<VideoFile> {
  await writeFile(file, body);
  const format = DEMUXERS[type];
  const undecodable = (error: unknown) => {
    if (signal?.aborted) return error;
    return failure(subject, UNDECODABLE_VIDEO, error instanceof RenderError ? error.details : String(error), error);
  };
  const info = await probe(file, signal, format).catch((error: unknown) => { throw undecodable(error); });
  const stream = info.streams.find((s) => s.codec_type === 'video' && s.width && s.height);
  if (!stream?.width || !stream.height) throw failure(subject, 'has no picture: it is not a video that can be played');
  // Every picture is decoded at this size: a few kilobytes of GIF can ask for a gigabyte a frame.
  if (stream.width * stream.height > MAX_VIDEO_PIXELS) throw failure(subject, `is too large to use: ${stream.width} × ${stream.height} pixels`);
  // ffmpeg may exit 0 having decoded nothing from a damaged file: ask for one tiny picture and count its bytes.
  const picture = await run('ffmpeg', ['-v', 'error', '-f', format, '-i', file, '-map', `0:${stream.index}`, '-frames:v', '1',
    '-vf', 'scale=16:16', '-pix_fmt', 'gray', '-f', 'rawvideo', 'pipe:1'], { signal, failure: 'The video could not be decoded' })
    .catch((error: unknown) => { throw undecodable(error); });
  if (picture.length !== 256) throw failure(subject, UNDECODABLE_VIDEO);
  const seconds = Number(stream.duration ?? info.format.duration ?? 0);
  // ffmpeg decodes the pictures upright: the scene lays the clip out at that size.
  const { width, height } = stream;
  const size = quarterTurned(stream) ? { width: height, height: width } : { width, height };
  return {
    file, format, ...size, durationMs: Number.isFinite(seconds) ? Math.round(seconds * 1000) : 0,
    hdr: HDR_TRANSFERS.has(stream.color_transfer ?? ''),
    primaries: stated(stream.color_primaries), matrix: stated(stream.color_space), subject,
  };
}

const stated = (tag: string | undefined) => (tag && tag !== 'unknown' && tag !== 'unspecified' ? tag : null);

/** Whether the display matrix turns the pictures a quarter turn, as phones store portrait clips. */
function quarterTurned(stream: ProbeStream): boolean {
  const rotation = stream.side_data_list?.find((data) => data.rotation !== undefined)?.rotation ?? Number(stream.tags?.rotate ?? 0);
  return Math.abs(rotation) % 180 === 90;
}
