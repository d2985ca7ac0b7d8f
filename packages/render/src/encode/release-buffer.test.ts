import { createCanvas } from '../canvas.ts';
import { describe, expect, it } from 'vitest';
import { releaseNow } from './release-buffer.ts';

describe('releaseNow', () => {
  it('frees a canvas read-back at once, leaving the view empty and the canvas as it was', () => {
    const canvas = createCanvas(64, 32);
    const ctx = canvas.getContext('2d', { alpha: false });
    ctx.fillStyle = '#ff5a36';
    ctx.fillRect(0, 0, 64, 32);
    const pixels = canvas.data();
    expect(pixels.length).toBe(64 * 32 * 4);
    expect(releaseNow(pixels)).toBe(true);
    expect(pixels.length).toBe(0);
    expect(pixels.buffer.byteLength).toBe(0);
    // The canvas keeps its own pixels: the next read-back is whole.
    expect([...canvas.data().subarray(0, 4)]).toEqual([0xff, 0x5a, 0x36, 0xff]);
  });

  it('leaves alone a view that shares its memory: a pooled Buffer, a part of a larger array', () => {
    const pooled = Buffer.from('pooled');
    expect(releaseNow(pooled)).toBe(false);
    expect(pooled.toString()).toBe('pooled');
    const whole = new Uint8Array(16).fill(7);
    expect(releaseNow(whole.subarray(4))).toBe(false);
    expect(whole.byteLength).toBe(16);
    expect(whole[15]).toBe(7);
  });
});
