import { RenderError } from '../errors.ts';
import { startChild, type Child } from '../process.ts';
import { UNDECODABLE_VIDEO, type VideoFile } from './decode.ts';
import { mediaFailure } from './fetch-media.ts';

/** Frames decoded ahead of the drawing: enough to hide the decoder's latency, no more. */
const AHEAD = 2;
/** Half a frame at 30 fps: a seek goes this much early, to land on the frame asked for. */
const HALF_FRAME_MS = 1000 / 60;

/**
 * HDR to the SDR BT.709 of every other picture: to linear light with HDR reference white
 * (203 nits, ITU-R BT.2408) as SDR white, to BT.709 primaries, the highlights above 70% of
 * white rolled off smoothly instead of clipped (mobius), then back to a BT.709 signal.
 * Run after the scaling, at the size drawn.
 */
const HDR_TO_SDR = [
  'zscale=t=linear:npl=203', 'format=gbrpf32le', 'zscale=p=bt709',
  'tonemap=tonemap=mobius:param=0.7:desat=0', 'zscale=t=bt709:m=bt709:r=tv', 'format=yuv420p',
].join(',');

/** A clip to decode: the file, its colours, and whom to name when it cannot be decoded. */
export type VideoInput = Pick<VideoFile, 'file' | 'format' | 'hdr'> & Partial<Pick<VideoFile, 'primaries' | 'matrix' | 'subject' | 'durationMs'>>;

/**
 * What HDR colours a file leaves unstated, as BT.2100 states them (BT.2020 primaries, the
 * non-constant luminance matrix): without them the tone mapping finds no way to BT.709.
 */
function assumedHdrColours(video: VideoInput): string | null {
  const assumed = [video.primaries ? null : 'color_primaries=bt2020', video.matrix ? null : 'colorspace=bt2020nc'].filter(Boolean);
  return assumed.length ? `setparams=${assumed.join(':')}` : null;
}

/**
 * A video decoded by ffmpeg into RGBA frames of exactly `width` × `height` at 30 fps,
 * cropped to fill, HDR tone-mapped, looping when the scene outlasts the clip. The decoder is
 * paused while two frames wait, so it runs only as fast as the frames are drawn and never
 * holds the clip.
 */
export class VideoFrames {
  private readonly child: Child;
  private readonly frameBytes: number;
  private readonly chunks: Buffer[] = [];
  private buffered = 0;
  private ended = false;
  private last: Buffer | null = null;
  private wake: (() => void) | null = null;
  /** How the decoder ended: an exit code, or null when a signal killed it. */
  private exitCode: number | null = null;

  /** `startMs` skips that far into the clip (looped as it plays): a still shows the frame the video shows then. */
  constructor(private readonly video: VideoInput, readonly width: number, readonly height: number, private readonly signal?: AbortSignal, startMs = 0) {
    this.frameBytes = width * height * 4;
    const fill = `fps=30,scale=${width}:${height}:force_original_aspect_ratio=increase,crop=${width}:${height}`;
    const filters = video.hdr ? [assumedHdrColours(video), fill, HDR_TO_SDR] : [fill];
    const skip = startMs > 0 && video.durationMs ? startMs % video.durationMs : 0;
    this.child = startChild('ffmpeg', [
      '-v', 'error', '-stream_loop', '-1', ...(skip > 0 ? ['-ss', ((skip - HALF_FRAME_MS) / 1000).toFixed(3)] : []), '-f', video.format, '-i', video.file, '-an', '-sn',
      '-vf', [...filters, 'format=rgba'].filter(Boolean).join(','),
      '-f', 'rawvideo', 'pipe:1',
    ], { signal, failure: 'A video could not be decoded', collectStdout: false });
    const stdout = this.child.process.stdout;
    stdout.on('data', (chunk: Buffer) => {
      this.chunks.push(chunk);
      this.buffered += chunk.length;
      if (this.buffered >= AHEAD * this.frameBytes) stdout.pause();
      this.notify();
    });
    const stop = () => {
      this.ended = true;
      this.notify();
    };
    stdout.on('end', stop);
    stdout.on('close', stop);
    this.child.process.on('exit', (code) => {
      this.exitCode = code;
    });
    // Closing early kills the decoder on purpose; its exit status does not matter then.
    this.child.done.catch(() => {});
  }

  /** The next frame; the last one again if the decoder has stopped. */
  async next(): Promise<Buffer> {
    while (this.buffered < this.frameBytes && !this.ended) {
      this.child.process.stdout.resume();
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
    if (this.buffered < this.frameBytes) {
      if (this.last) return this.last;
      throw await this.failure();
    }
    this.last = this.take(this.frameBytes);
    if (this.buffered < AHEAD * this.frameBytes && !this.ended) this.child.process.stdout.resume();
    return this.last;
  }

  /**
   * Why the decoder stopped before its first frame. One that exited on its own (ffmpeg refusing
   * the clip, or finding no frame in it) fails the medium, named and final: the clip passed its
   * checks before the render, and another try would decode it no better. One killed or never
   * started (out of memory, out of processes) fails this try only.
   */
  private async failure(): Promise<unknown> {
    const stopped = await this.child.done.then(() => null, (error: unknown) => error);
    if (this.signal?.aborted) return this.signal.reason;
    const details = stopped instanceof RenderError ? stopped.details : stopped ? String(stopped) : 'The decoder gave no frames.';
    if (!this.video.subject || this.exitCode === null) return new RenderError('The video decoder stopped before its first frame', details, { cause: stopped });
    return mediaFailure(this.video.subject, UNDECODABLE_VIDEO, { details, cause: stopped });
  }

  close(): void {
    this.child.process.kill('SIGKILL');
  }

  private take(bytes: number): Buffer {
    const frame = Buffer.allocUnsafe(bytes);
    let filled = 0;
    while (filled < bytes) {
      const chunk = this.chunks[0] as Buffer;
      const used = Math.min(chunk.length, bytes - filled);
      chunk.copy(frame, filled, 0, used);
      filled += used;
      if (used === chunk.length) this.chunks.shift();
      else this.chunks[0] = chunk.subarray(used);
    }
    this.buffered -= bytes;
    return frame;
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}
