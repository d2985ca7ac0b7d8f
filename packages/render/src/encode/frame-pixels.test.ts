import { createCanvas, type Canvas } from '../canvas.ts';
import { describe, expect, it } from 'vitest';
import { FramePixels } from './frame-pixels.ts';
import { I420Frame } from './i420.ts';

function filled(width: number, height: number, color: string): Canvas {
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d', { alpha: false });
  ctx.fillStyle = color;
  ctx.fillRect(0, 0, width, height);
  return canvas;
}

describe('FramePixels', () => {
  it('converts an area drawn in a canvas of its own into its place in the frame, then empties that canvas', () => {
    const frame = filled(16, 8, '#101522');
    const pixels = new FramePixels(frame);
    pixels.update({ kind: 'full' });

    const area = { x: 4, y: 2, width: 6, height: 4 };
    const areaCanvas = filled(area.width, area.height, '#ff5a36');
    const updated = Buffer.from(pixels.update({ kind: 'area', area, canvas: areaCanvas }));
    expect(areaCanvas.width).toBe(0);

    // The same frame drawn whole and converted in one go.
    const whole = filled(16, 8, '#101522');
    whole.getContext('2d').drawImage(filled(area.width, area.height, '#ff5a36'), area.x, area.y);
    const expected = new I420Frame(16, 8);
    expected.convert(whole.data(), 16, { x: 0, y: 0, width: 16, height: 8 });
    expect(updated.equals(expected.buffer)).toBe(true);
  });

  it('sends an unchanged frame as the same buffer, untouched', () => {
    const pixels = new FramePixels(filled(4, 4, '#ff5a36'));
    const first = Buffer.from(pixels.update({ kind: 'full' }));
    expect(pixels.update({ kind: 'none' }).equals(first)).toBe(true);
  });
});
