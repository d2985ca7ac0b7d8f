import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { run } from '../process.ts';
import { I420Frame } from './i420.ts';
import { RGB_TO_BT709 } from './x264.ts';

/** Opaque RGBA pixels, `width` x `height`, coloured by `paint(x, y)`. */
function rgba(width: number, height: number, paint: (x: number, y: number) => [number, number, number]): Buffer {
  const pixels = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      pixels.set([...paint(x, y), 255], (y * width + x) * 4);
    }
  }
  return pixels;
}

function yuvOf(color: [number, number, number]): [number, number, number] {
  const frame = new I420Frame(2, 2);
  frame.convert(rgba(2, 2, () => color), 2, { x: 0, y: 0, width: 2, height: 2 });
  return [frame.buffer[0]!, frame.buffer[4]!, frame.buffer[5]!];
}

describe('I420Frame', () => {
  it('converts to limited-range BT.709, the matrix the stream is tagged with', () => {
    expect(yuvOf([0, 0, 0])).toEqual([16, 128, 128]);
    expect(yuvOf([255, 255, 255])).toEqual([235, 128, 128]);
    // Reference values of BT.709 for the primaries, rounded.
    expect(yuvOf([255, 0, 0])).toEqual([63, 102, 240]);
    expect(yuvOf([0, 255, 0])).toEqual([173, 42, 26]);
    expect(yuvOf([0, 0, 255])).toEqual([32, 240, 118]);
  });

  it('gives each 2x2 block the mean of its colours as chroma', () => {
    const frame = new I420Frame(2, 2);
    frame.convert(rgba(2, 2, (x) => (x === 0 ? [255, 0, 0] : [0, 0, 255])), 2, { x: 0, y: 0, width: 2, height: 2 });
    expect([...frame.buffer.subarray(0, 4)]).toEqual([63, 32, 63, 32]);
    expect([frame.buffer[4], frame.buffer[5]]).toEqual([171, 179]);
  });

  it('converts an area in place and leaves the rest of the frame as it was', () => {
    const frame = new I420Frame(8, 4);
    frame.convert(rgba(8, 4, () => [255, 255, 255]), 8, { x: 0, y: 0, width: 8, height: 4 });
    frame.convert(rgba(4, 2, () => [0, 0, 0]), 4, { x: 2, y: 2, width: 4, height: 2 });
    const luma = [...frame.buffer.subarray(0, 32)];
    expect(luma.slice(0, 16)).toEqual(Array(16).fill(235));
    expect(luma.slice(16, 24)).toEqual([235, 235, 16, 16, 16, 16, 235, 235]);
    expect(luma.slice(24, 32)).toEqual([235, 235, 16, 16, 16, 16, 235, 235]);
    // Chroma: 4x2 blocks, of which none changed colour (black and white are both neutral).
    expect([...frame.buffer.subarray(32)]).toEqual(Array(16).fill(128));
  });

  it("agrees with ffmpeg's own conversion of the same pixels", async () => {
    const width = 64;
    const height = 32;
    // Flat brand colours beside smooth gradients: what frames are made of.
    const pixels = rgba(width, height, (x, y) => (x < 32
      ? (y < 16 ? [255, 90, 54] : [16, 21, 34])
      : [x * 4 - 1, y * 8, 255 - x * 2]));
    const frame = new I420Frame(width, height);
    frame.convert(pixels, width, { x: 0, y: 0, width, height });

    const stdout = await run('ffmpeg', [
      '-v', 'error', '-f', 'rawvideo', '-pix_fmt', 'rgba', '-s', `${width}x${height}`, '-i', 'pipe:0',
      '-vf', `${RGB_TO_BT709},format=yuv420p`, '-f', 'rawvideo', 'pipe:1',
    ], { failure: 'ffmpeg failed', input: pixels });
    expect(stdout.length).toBe(frame.buffer.length);
    const luma = width * height;
    let worstLuma = 0;
    for (let i = 0; i < luma; i++) worstLuma = Math.max(worstLuma, Math.abs(stdout[i]! - frame.buffer[i]!));
    expect(worstLuma).toBeLessThanOrEqual(1);
    // Chroma is halved by other filters (a box here, swscale's bicubic there): the same
    // on flat colour and on gradients; only at hard edges does swscale's kernel ring.
    const half = width / 2;
    const chromaPlane = luma / 4;
    const edge = (cx: number, cy: number) => Math.abs(cx - 15.5) < 2 || (cx < 16 && Math.abs(cy - 7.5) < 2);
    let worstAwayFromEdges = 0;
    let total = 0;
    for (let plane = 0; plane < 2; plane++) {
      for (let cy = 0; cy < height / 2; cy++) {
        for (let cx = 0; cx < half; cx++) {
          const i = luma + plane * chromaPlane + cy * half + cx;
          const difference = Math.abs(stdout[i]! - frame.buffer[i]!);
          total += difference;
          if (!edge(cx, cy)) worstAwayFromEdges = Math.max(worstAwayFromEdges, difference);
        }
      }
    }
    expect(worstAwayFromEdges).toBeLessThanOrEqual(1);
    expect(total / (2 * chromaPlane)).toBeLessThan(1);
  });

  it('gives, eight pixels at a time or two, exactly the fixed-point values of the formula, across the bands it copies', () => {
    // The formula in 16.16 fixed point, one pixel (or 2x2 block) at a time.
    const channels = (pixels: Buffer, i: number) => [pixels[i]!, pixels[i + 1]!, pixels[i + 2]!];
    const luma = ([r, g, b]: number[]) => (11966 * r! + 40254 * g! + 4064 * b! + (16 << 16) + (1 << 15)) >> 16;
    const chroma = ([r, g, b]: number[], [wr, wg, wb]: number[]) => 128 + ((wr! * r! + wg! * g! + wb! * b! + (1 << 17)) >> 18);
    const width = 1920;
    const height = 1080;
    const frame = new I420Frame(width, height);
    // A whole frame of noise (many bands), then an area whose width leaves pairs after the eights.
    const noise = (w: number, h: number, seed: number) => Buffer.from(Array.from({ length: w * h * 4 }, (_, i) => (i % 4 === 3 ? 255 : ((i + seed) * 2654435761) >>> 24)));
    const whole = noise(width, height, 0);
    const area = { x: 102, y: 40, width: 606, height: 300 };
    const part = noise(area.width, area.height, 7);
    frame.convert(whole, width, { x: 0, y: 0, width, height });
    frame.convert(part, area.width, area);

    const source = (x: number, y: number) => {
      const inArea = x >= area.x && x < area.x + area.width && y >= area.y && y < area.y + area.height;
      return inArea ? channels(part, ((y - area.y) * area.width + x - area.x) * 4) : channels(whole, (y * width + x) * 4);
    };
    const expected = Buffer.alloc(frame.buffer.length);
    const half = width / 2;
    for (let y = 0; y < height; y += 2) {
      for (let x = 0; x < width; x += 2) {
        const block = [source(x, y), source(x + 1, y), source(x, y + 1), source(x + 1, y + 1)];
        block.forEach((pixel, i) => { expected[(y + (i >> 1)) * width + x + (i & 1)] = luma(pixel); });
        const sum = [0, 1, 2].map((channel) => block.reduce((total, pixel) => total + pixel[channel]!, 0));
        const c = width * height + (y / 2) * half + x / 2;
        expected[c] = chroma(sum, [-6596, -22189, 28785]);
        expected[c + half * (height / 2)] = chroma(sum, [28785, -26145, -2639]);
      }
    }
    expect(frame.buffer.equals(expected)).toBe(true);
  });

  it('runs the module built from assembly/i420.ts as it stands', async () => {
    const packageDir = fileURLToPath(new URL('../..', import.meta.url));
    const { scripts } = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const [, ...args] = scripts['build:wasm']!.split(' ');
    const dir = await mkdtemp(join(tmpdir(), 'vp-i420-wasm-'));
    try {
      const built = join(dir, 'i420.wasm');
      await promisify(execFile)(join(packageDir, 'node_modules/.bin/asc'), [...args.slice(0, args.indexOf('-o')), '-o', built], { cwd: packageDir });
      expect((await readFile(built)).equals(await readFile(join(packageDir, 'src/encode/i420.wasm')))).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
