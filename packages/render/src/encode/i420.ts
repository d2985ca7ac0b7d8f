import { readFileSync } from 'node:fs';
import type { Rect } from '../draw/layout.ts';
import type {} from './webassembly.d.ts';

/**
 * The conversion itself, BT.709 limited range ("tv", the matrix the stream is tagged with) with
 * chroma the mean of each 2x2 block: WebAssembly with SIMD, compiled from `assembly/i420.ts`.
 * ~1.6 ms a 1080p frame, against ~5 ms for the same arithmetic in JavaScript.
 */
const conversion = new WebAssembly.Module(readFileSync(new URL('./i420.wasm', import.meta.url)));
type Convert = (src: number, stride: number, dst: number, width: number, height: number, x: number, y: number, w: number, h: number) => void;

/** The source is copied into the module's memory a band of rows at a time, small enough to stay in cache. */
const BAND_BYTES = 256 * 1024;
const WASM_PAGE = 64 * 1024;

/**
 * A frame in I420 (yuv420p): the Y plane, then U and V at half width and height. `buffer` is a
 * view of the WebAssembly module's memory, which never grows, so it stays valid and the same.
 */
export class I420Frame {
  readonly buffer: Buffer;
  private readonly memory: Uint8Array;
  private readonly band: { offset: number; bytes: number };
  private readonly convertRows: Convert;

  constructor(readonly width: number, readonly height: number) {
    if (width % 2 || height % 2) throw new RangeError(`I420 needs an even frame size, not ${width} x ${height}`);
    const frameBytes = width * height * 1.5;
    // Room for at least two rows of the widest source, the frame's own width.
    this.band = { offset: Math.ceil(frameBytes / 16) * 16, bytes: Math.max(BAND_BYTES, 2 * width * 4) };
    const memory = new WebAssembly.Memory({ initial: Math.ceil((this.band.offset + this.band.bytes) / WASM_PAGE) });
    this.convertRows = new WebAssembly.Instance(conversion, { env: { memory } }).exports.convert as Convert;
    this.memory = new Uint8Array(memory.buffer);
    this.buffer = Buffer.from(memory.buffer, 0, frameBytes);
  }

  /**
   * Converts `rect` (even-aligned, inside the frame) from opaque RGBA pixels whose row `stride`
   * is in pixels (at most the frame's width) and whose first pixel is the rect's top-left corner.
   */
  convert(rgba: Uint8Array | Uint8ClampedArray, stride: number, rect: Rect): void {
    const rowBytes = stride * 4;
    const rows = Math.max(2, Math.floor(this.band.bytes / rowBytes / 2) * 2);
    for (let row = 0; row < rect.height; row += rows) {
      const height = Math.min(rows, rect.height - row);
      // A byte view, whatever the source's type: the copy is then a plain memcpy.
      this.memory.set(new Uint8Array(rgba.buffer, rgba.byteOffset + row * rowBytes, height * rowBytes), this.band.offset);
      this.convertRows(this.band.offset, stride, 0, this.width, this.height, rect.x, rect.y + row, rect.width, height);
    }
  }
}
