import type { Canvas } from '@napi-rs/canvas';
import type { FrameChange } from '../draw/compositor.ts';

/**
 * The pixels handed to the encoder, kept in step with the canvas at the least cost: an
 * unchanged frame sends the same buffer again, a fully redrawn one is read back whole, and a
 * frame that changed in one area reads back only that area and patches it into a buffer of
 * our own. That buffer is only patched once the encoder has taken the previous frame from it
 * (`VideoEncoder.write` resolves when the pipe has it).
 */
export class FramePixels {
  private current: Buffer | null = null;
  private own: Buffer | null = null;

  constructor(private readonly canvas: Canvas) {}

  update(change: FrameChange): Buffer {
    if (change.kind === 'none' && this.current) return this.current;
    if (change.kind !== 'area' || !this.current) {
      this.current = this.canvas.data();
      return this.current;
    }
    const own = (this.own ??= Buffer.allocUnsafe(this.current.length));
    if (this.current !== own) own.set(this.current);
    this.current = own;
    const { x, y, width, height } = change.area;
    const region = this.canvas.getContext('2d').getImageData(x, y, width, height).data;
    const stride = this.canvas.width * 4;
    const row = width * 4;
    for (let line = 0; line < height; line++) own.set(region.subarray(line * row, (line + 1) * row), (y + line) * stride + x * 4);
    return own;
  }
}
