import type { Canvas } from '../canvas.ts';
import type { FrameChange } from '../draw/compositor.ts';
import type { Rect } from '../draw/layout.ts';
import { I420Frame } from './i420.ts';
import { releaseNow } from './release-buffer.ts';

/**
 * The frame handed to the encoder, in I420, kept in step with the compositor at the least cost:
 * an unchanged frame sends the same buffer again, a frame drawn whole is read back from the
 * compositor's canvas and converted whole, and a frame that changed in one area is read back
 * from that area's canvas, converted there only, and that canvas emptied. Each read-back is
 * freed at once (see `releaseNow`). The buffer is only changed once the encoder has taken the
 * previous frame from it (`VideoEncoder.write` resolves when the pipe has it).
 */
export class FramePixels {
  private readonly frame: I420Frame;

  constructor(private readonly canvas: Canvas) {
    this.frame = new I420Frame(canvas.width, canvas.height);
  }

  update(change: FrameChange): Buffer {
    const { width, height } = this.canvas;
    if (change.kind === 'full') this.convertFrom(this.canvas, { x: 0, y: 0, width, height });
    else if (change.kind === 'area') {
      this.convertFrom(change.canvas, change.area);
      // The area's canvas is drawn for one frame: emptied now, its pixels go back to the heap
      // for the next area's canvas instead of waiting for V8 to collect it.
      change.canvas.width = 0;
    }
    return this.frame.buffer;
  }

  /** Reads `canvas` back whole and converts it into the frame's `area`. */
  private convertFrom(canvas: Canvas, area: Rect): void {
    const pixels = canvas.data();
    this.frame.convert(pixels, canvas.width, area);
    releaseNow(pixels);
  }
}
