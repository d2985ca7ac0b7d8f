import type { Canvas } from '@napi-rs/canvas';
import type { FrameChange } from '../draw/compositor.ts';
import type { Rect } from '../draw/layout.ts';
import { I420Frame } from './i420.ts';
import { releaseNow } from './release-buffer.ts';

/**
 * The frame handed to the encoder, in I420, kept in step with the canvas at the least cost:
 * an unchanged frame sends the same buffer again, a fully redrawn one is read back and
 * converted whole (and the read-back's 8 MB freed at once: see `releaseNow`), and a frame that
 * changed in one area reads back and converts only that area. The buffer is only changed once
 * the encoder has taken the previous frame from it (`VideoEncoder.write` resolves when the pipe
 * has it).
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
      const area = evenAligned(change.area, width, height);
      const region = this.canvas.getContext('2d').getImageData(area.x, area.y, area.width, area.height).data;
      this.frame.convert(region, area.width, area);
    }
    return this.frame.buffer;
  }
}

/** Chroma covers 2x2 blocks: an area is widened to whole blocks. */
function evenAligned(area: Rect, width: number, height: number): Rect {
  const x = Math.floor(area.x / 2) * 2;
  const y = Math.floor(area.y / 2) * 2;
  return {
    x, y,
    width: Math.min(width, Math.ceil((area.x + area.width) / 2) * 2) - x,
    height: Math.min(height, Math.ceil((area.y + area.height) / 2) * 2) - y,
  };
}
