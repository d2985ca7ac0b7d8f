import type { Canvas } from '@napi-rs/canvas';
import type { FrameChange } from '../draw/compositor.ts';
import { I420Frame } from './i420.ts';
import { releaseNow } from './release-buffer.ts';

/**
 * The frame handed to the encoder, in I420, kept in step with the compositor at the least cost:
 * an unchanged frame sends the same buffer again, a frame drawn whole is read back from the
 * compositor's canvas and converted whole, and a frame that changed in one area is read back
 * from that area's canvas and converted there only. Each read-back is freed at once (see
 * `releaseNow`). The buffer is only changed once the encoder has taken the previous frame from
 * it (`VideoEncoder.write` resolves when the pipe has it).
 */
export class FramePixels {
  private readonly frame: I420Frame;

  constructor(private readonly canvas: Canvas) {
    this.frame = new I420Frame(canvas.width, canvas.height);
  }

  update(change: FrameChange): Buffer {
    const { width, height } = this.canvas;
    if (change.kind === 'full') {
      const pixels = this.canvas.data();
      this.frame.convert(pixels, width, { x: 0, y: 0, width, height });
      releaseNow(pixels);
    } else if (change.kind === 'area') {
      const pixels = change.canvas.data();
      this.frame.convert(pixels, change.area.width, change.area);
      releaseNow(pixels);
    }
    return this.frame.buffer;
  }
}
