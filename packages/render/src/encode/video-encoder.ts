import { startChild, type Child } from '../process.ts';
import { x264Args } from './x264.ts';

/**
 * ffmpeg reading raw I420 frames on stdin (converted by `FramePixels`, tagged as converted)
 * and writing H.264. `write` resolves once the frame is in the pipe: the drawing of the next
 * frame overlaps the encoding of this one, and no more than one frame waits in memory.
 */
export class VideoEncoder {
  private readonly child: Child;
  private failure: unknown = null;

  constructor(options: { width: number; height: number; outFile: string; keyframeTimesMs: number[]; signal?: AbortSignal }) {
    const { width, height, outFile, keyframeTimesMs, signal } = options;
    this.child = startChild('ffmpeg', [
      '-v', 'error', '-y',
      '-f', 'rawvideo', '-pix_fmt', 'yuv420p', '-color_range', 'tv', '-colorspace', 'bt709', '-s', `${width}x${height}`, '-framerate', '30', '-i', 'pipe:0',
      ...x264Args(keyframeTimesMs),
      // Each chroma sample is the mean of its 2x2 block (`I420Frame`): sited at the centre.
      '-chroma_sample_location', 'center',
      // No index up front here: the soundtrack's ffmpeg writes the final file and puts it there.
      '-an', outFile,
    ], { signal, failure: 'The video could not be encoded', collectStdout: false });
    this.child.done.catch((error: unknown) => {
      this.failure = error;
    });
  }

  /** Resolves once the whole frame is in the pipe: the caller may then reuse the buffer. */
  async write(frame: Buffer): Promise<void> {
    if (this.failure) throw this.failure;
    const written = new Promise<void>((resolve, reject) => {
      this.child.process.stdin.write(frame, (error) => (error ? reject(error) : resolve()));
    });
    await Promise.race([written, this.child.done]);
  }

  async finish(): Promise<void> {
    this.child.process.stdin.end();
    await this.child.done;
  }

  kill(): void {
    this.child.process.kill('SIGKILL');
  }
}
