import { createCanvas, loadImage, type Canvas } from '../canvas.ts';
import type { Composition } from '../composition/schema.ts';
import { Background } from '../draw/background.ts';
import { Chrome } from '../draw/chrome.ts';
import { layoutFor, type Rect } from '../draw/layout.ts';
import { themeFor } from '../draw/theme.ts';
import type { Picture } from '../review/frames.ts';

/** A canvas's pixels as RGB. */
export function rgbOf(canvas: Canvas): Picture {
  const rgba = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  const data = Buffer.alloc(canvas.width * canvas.height * 3);
  for (let i = 0, j = 0; i < rgba.length; i += 4, j += 3) {
    data[j] = rgba[i]!;
    data[j + 1] = rgba[i + 1]!;
    data[j + 2] = rgba[i + 2]!;
  }
  return { width: canvas.width, height: canvas.height, data };
}

/** What a frame of the composition shows without any scene: its brand background, as RGB at `width` pixels wide. */
export function backdropOf(composition: Composition, width = composition.width): Picture {
  const frame = layoutFor(composition.width, composition.height);
  const background = new Background(frame, themeFor(composition.brand, null));
  const full = createCanvas(composition.width, composition.height);
  background.draw(full.getContext('2d', { alpha: false }));
  if (width === composition.width) return rgbOf(full);
  const scaled = createCanvas(width, Math.round((width * composition.height) / composition.width / 2) * 2);
  scaled.getContext('2d', { alpha: false }).drawImage(full, 0, 0, scaled.width, scaled.height);
  return rgbOf(scaled);
}

/** A pixel counts as content where a channel differs from the backdrop's by more than this. */
const CONTENT = 24;

/** Which pixels of `frame` are content: differ from the backdrop, outside `ignore`. */
export function contentMask(frame: Picture, backdrop: Picture, ignore: Rect[] = []): Uint8Array {
  const mask = new Uint8Array(frame.width * frame.height);
  for (let p = 0, i = 0; p < mask.length; p++, i += 3) {
    const d = Math.max(Math.abs(frame.data[i]! - backdrop.data[i]!), Math.abs(frame.data[i + 1]! - backdrop.data[i + 1]!), Math.abs(frame.data[i + 2]! - backdrop.data[i + 2]!));
    mask[p] = d > CONTENT ? 1 : 0;
  }
  for (const rect of ignore) {
    for (let y = Math.max(0, rect.y); y < Math.min(frame.height, rect.y + rect.height); y++) mask.fill(0, y * frame.width + Math.max(0, rect.x), y * frame.width + Math.min(frame.width, rect.x + rect.width));
  }
  return mask;
}

/**
 * The box that holds a frame's content: the rows and columns where content takes more than a
 * few pixels (stray pixels of compression noise do not count), or null for a frame without any.
 */
export function contentBox(mask: Uint8Array, width: number, height: number): Rect | null {
  const rows = new Array<number>(height).fill(0);
  const columns = new Array<number>(width).fill(0);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (mask[y * width + x]) {
        rows[y]!++;
        columns[x]!++;
      }
    }
  }
  const inRow = Math.max(2, width * 0.004);
  const inColumn = Math.max(2, height * 0.004);
  const top = rows.findIndex((n) => n >= inRow);
  const left = columns.findIndex((n) => n >= inColumn);
  if (top < 0 || left < 0) return null;
  const bottom = height - 1 - [...rows].reverse().findIndex((n) => n >= inRow);
  const right = width - 1 - [...columns].reverse().findIndex((n) => n >= inColumn);
  return { x: left, y: top, width: right - left + 1, height: bottom - top + 1 };
}

/**
 * The share of the frame's safe area (inside its margins) that its content's box covers, for a
 * frame of the composition decoded or drawn at any size; the brand bug is left out.
 */
export function safeAreaCoverage(frame: Picture, composition: Composition, backdrop = backdropOf(composition, frame.width)): number {
  const scale = frame.width / composition.width;
  const layout = layoutFor(composition.width, composition.height);
  const bug = new Chrome(layout, themeFor(composition.brand, null)).area;
  const at = (r: Rect): Rect => ({ x: Math.floor(r.x * scale), y: Math.floor(r.y * scale), width: Math.ceil(r.width * scale), height: Math.ceil(r.height * scale) });
  const box = contentBox(contentMask(frame, backdrop, bug ? [at({ ...bug, x: 0, y: 0, width: bug.x + bug.width + 8, height: bug.y + bug.height + 8 })] : []), frame.width, frame.height);
  if (!box) return 0;
  const safe = at(layout.safe);
  const w = Math.min(box.x + box.width, safe.x + safe.width) - Math.max(box.x, safe.x);
  const h = Math.min(box.y + box.height, safe.y + safe.height) - Math.max(box.y, safe.y);
  return w > 0 && h > 0 ? (w * h) / (safe.width * safe.height) : 0;
}

/** Peak signal-to-noise ratio of two pictures of the same size, in dB (Infinity when equal). */
export function psnr(a: Picture, b: Picture): number {
  let squares = 0;
  for (let i = 0; i < a.data.length; i++) squares += (a.data[i]! - b.data[i]!) ** 2;
  const mse = squares / a.data.length;
  return mse === 0 ? Infinity : 10 * Math.log10((255 * 255) / mse);
}

/** A PNG or JPEG decoded as RGB. */
export async function decodePicture(bytes: Buffer): Promise<Picture> {
  const image = await loadImage(bytes);
  const canvas = createCanvas(image.width, image.height);
  canvas.getContext('2d').drawImage(image, 0, 0);
  return rgbOf(canvas);
}
