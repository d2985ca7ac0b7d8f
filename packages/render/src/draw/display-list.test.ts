import { createCanvas, type Canvas } from '../canvas.ts';
import { describe, expect, it } from 'vitest';
import { DisplayList, drawAsRecording } from './display-list.ts';

/** A tall layer of text on a panel, as the code scene's is. */
function textLayer(): Canvas {
  const canvas = createCanvas(640, 2400);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#1e2430';
  ctx.fillRect(0, 0, 640, 2400);
  ctx.textBaseline = 'middle';
  for (let row = 0; row < 80; row++) {
    if (row % 7 === 3) {
      ctx.fillStyle = 'rgba(46, 160, 67, 0.2)';
      ctx.fillRect(0, row * 30, 640, 30);
    }
    ctx.font = '20px monospace';
    ctx.fillStyle = `hsl(${(row * 47) % 360}, 70%, 70%)`;
    ctx.fillText(`${row + 1}  const value${row} = compute(${row}, "text");`, 12, row * 30 + 15);
  }
  return canvas;
}

/** The frame a list draws: the layer scrolled by 700 pixels, faded to 80%, on a plain background. */
function frameOf(layer: Canvas): Buffer {
  const list = new DisplayList();
  list.alpha = 0.8;
  list.imageRegion(layer, 0, 700, 640, 500, 40, 30, 640, 500);
  const frame = createCanvas(720, 560);
  const ctx = frame.getContext('2d', { alpha: false });
  ctx.fillStyle = '#0b0f17';
  ctx.fillRect(0, 0, 720, 560);
  list.replay(ctx);
  return frame.data();
}

describe('a layer drawn as its recording', () => {
  it('gives the pixels its copy would, to within rounding', () => {
    const copied = frameOf(textLayer());
    const replayed = frameOf(drawAsRecording(textLayer()));
    let largest = 0;
    for (let i = 0; i < copied.length; i++) largest = Math.max(largest, Math.abs((copied[i] ?? 0) - (replayed[i] ?? 0)));
    expect(largest).toBeLessThanOrEqual(1);
    // Both drew the layer: most of the frame is its panel, not the background.
    const background = frameOf(createCanvas(640, 2400));
    let drawn = 0;
    for (let i = 0; i < replayed.length; i += 4) if (replayed[i] !== background[i] || replayed[i + 2] !== background[i + 2]) drawn++;
    expect(drawn / (replayed.length / 4)).toBeGreaterThan(0.6);
  });
});
