export type SniffedType = 'png' | 'jpeg' | 'webp' | 'gif' | 'avif' | 'heic' | 'svg' | 'mp4' | 'quicktime' | 'webm';

const startsWith = (bytes: Buffer, signature: number[], offset = 0) =>
  signature.every((byte, i) => bytes[offset + i] === byte);

/** What a file is, from its first bytes: servers' content types are not always true. */
export function sniff(bytes: Buffer): SniffedType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && bytes.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  if (bytes.toString('latin1', 0, 6) === 'GIF87a' || bytes.toString('latin1', 0, 6) === 'GIF89a') return 'gif';
  if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) return 'webm';
  if (bytes.toString('latin1', 4, 8) === 'ftyp') return isoMediaType(bytes);
  if (isSvg(bytes)) return 'svg';
  return null;
}

/** How far `<svg` may be: past a licence comment, not the whole of a large drawing. */
const SVG_HEAD_BYTES = 16 * 1024;
/** One thing an XML prolog may hold: whitespace, a declaration or processing instruction, a comment, a DOCTYPE. */
const PROLOG_ITEM = /\s+|<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE\s+svg\b[^[>]*(?:\[[\s\S]*?\])?\s*>/iy;
const SVG_ROOT = /<svg[\s>]/iy;

/**
 * An SVG starts with its `<svg>` element once the prolog is skipped: editors write one (an
 * Illustrator file has a declaration, a generator comment and a DOCTYPE), icon sets a licence.
 * The prolog is stepped over one item at a time, so no pattern backtracks across the head.
 */
function isSvg(bytes: Buffer): boolean {
  const head = bytes.toString('utf8', 0, SVG_HEAD_BYTES);
  let at = head.startsWith('\uFEFF') ? 1 : 0;
  for (;;) {
    PROLOG_ITEM.lastIndex = at;
    if (!PROLOG_ITEM.test(head)) break;
    at = PROLOG_ITEM.lastIndex;
  }
  SVG_ROOT.lastIndex = at;
  return SVG_ROOT.test(head);
}

/** Brands that make an ISO media file (MP4's family) a still picture. */
const AVIF_BRANDS = new Set(['avif', 'avis']);
const HEIC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx']);

/** MP4, QuickTime, AVIF and HEIC all start with an `ftyp` box: its brands tell them apart. */
function isoMediaType(bytes: Buffer): SniffedType {
  const end = Math.min(bytes.length, bytes.readUInt32BE(0));
  const brands = [bytes.toString('latin1', 8, 12)];
  // Then a minor version, then the compatible brands.
  for (let offset = 16; offset + 4 <= end; offset += 4) brands.push(bytes.toString('latin1', offset, offset + 4));
  if (brands.some((brand) => AVIF_BRANDS.has(brand))) return 'avif';
  if (brands.some((brand) => HEIC_BRANDS.has(brand))) return 'heic';
  return brands[0] === 'qt  ' ? 'quicktime' : 'mp4';
}

/** Beyond this a picture costs more memory to decode than a render may spend. */
export const MAX_PICTURE_PIXELS = 60_000_000;
/** A video or an animated GIF is decoded picture after picture: 8K UHD, the most a camera records. */
export const MAX_VIDEO_PIXELS = 7680 * 4320;

/** Width and height from the header, read before decoding so a huge picture is refused cheaply. */
export function imageDimensions(bytes: Buffer, type: SniffedType): { width: number; height: number } | null {
  try {
    switch (type) {
      case 'png':
        return bytes.toString('latin1', 12, 16) === 'IHDR' ? { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) } : null;
      case 'gif':
        return { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
      case 'webp':
        return webpDimensions(bytes);
      case 'jpeg':
        return jpegDimensions(bytes);
      case 'avif':
        return avifDimensions(bytes);
      default:
        return null;
    }
  } catch {
    return null;
  }
}

function webpDimensions(bytes: Buffer) {
  const chunk = bytes.toString('latin1', 12, 16);
  if (chunk === 'VP8 ') return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
  if (chunk === 'VP8L') {
    const bits = bytes.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') return { width: bytes.readUIntLE(24, 3) + 1, height: bytes.readUIntLE(27, 3) + 1 };
  return null;
}

/** The boxes of an ISO media file (MP4's family) between `start` and `end`: type and contents. */
function* isoBoxes(bytes: Buffer, start: number, end: number): Generator<{ type: string; start: number; end: number }> {
  for (let at = start; at + 8 <= end;) {
    let size = bytes.readUInt32BE(at);
    let header = 8;
    if (size === 1) [size, header] = [Number(bytes.readBigUInt64BE(at + 8)), 16];
    else if (size === 0) size = end - at;
    if (size < header || at + size > end) return;
    yield { type: bytes.toString('latin1', at + 4, at + 8), start: at + header, end: at + size };
    at += size;
  }
}

/**
 * The largest `ispe` (image spatial extents) property in `meta/iprp/ipco`: the picture, a grid
 * of tiles, a thumbnail. The largest is what a decoder may allocate; one found anywhere else in
 * the file (a `free` box, the coded data) is no size at all.
 */
function avifDimensions(bytes: Buffer) {
  const child = (type: string, parent: { start: number; end: number } | null) => {
    for (const box of parent ? isoBoxes(bytes, parent.start, parent.end) : []) if (box.type === type) return box;
    return null;
  };
  const meta = child('meta', { start: 0, end: bytes.length });
  // `meta` is a full box: its version and flags come before its children.
  const properties = child('ipco', child('iprp', meta && { start: meta.start + 4, end: meta.end }));
  if (!properties) return null;
  let largest: { width: number; height: number } | null = null;
  for (const box of isoBoxes(bytes, properties.start, properties.end)) {
    if (box.type !== 'ispe' || box.start + 12 > box.end) continue;
    const size = { width: bytes.readUInt32BE(box.start + 4), height: bytes.readUInt32BE(box.start + 8) };
    if (!largest || size.width * size.height > largest.width * largest.height) largest = size;
  }
  return largest;
}

/** Markers that stand alone, with no length: TEM, RST0-7, SOI. */
const STANDALONE = (marker: number) => marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8);
/** Start-of-frame markers carry the size; 0xc4 (DHT), 0xc8 (JPG) and 0xcc (DAC) do not. */
const FRAME_HEADER = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

const JPEG_END = Buffer.from([0xff, 0xd9]);

/**
 * A JPEG's segments, stepped through as libjpeg steps: bytes between segments and 0xFF fill
 * bytes are skipped, each segment by its length. `at` is just past the marker. A reader that
 * stepped differently could be led to a frame header hidden inside a segment the decoder skips.
 */
function* jpegSegments(bytes: Buffer): Generator<{ marker: number; at: number }> {
  let at = 2;
  while (at < bytes.length) {
    while (at < bytes.length && bytes[at] !== 0xff) at++;
    while (at < bytes.length && bytes[at] === 0xff) at++;
    const marker = bytes[at++];
    if (marker === undefined) return;
    if (marker === 0x00 || STANDALONE(marker)) continue;
    yield { marker, at };
    // The image data (SOS) or its end (EOI): no more segments to step through.
    if (marker === 0xda || marker === 0xd9) return;
    at += bytes.readUInt16BE(at);
  }
}

/** The frame header's size; null when the image data comes first. */
function jpegDimensions(bytes: Buffer) {
  for (const { marker, at } of jpegSegments(bytes)) {
    if (FRAME_HEADER(marker)) return { height: bytes.readUInt16BE(at + 3), width: bytes.readUInt16BE(at + 5) };
  }
  return null;
}

/**
 * Whether a JPEG reaches its end-of-image marker after its image data begins. One found before
 * is not the end: a camera's EXIF thumbnail is a whole JPEG of its own, inside a segment.
 */
export function jpegIsWhole(bytes: Buffer): boolean {
  try {
    for (const { marker, at } of jpegSegments(bytes)) {
      if (marker === 0xda) return bytes.indexOf(JPEG_END, at) > 0;
    }
  } catch {
    // A segment runs past the end of the file.
  }
  return false;
}
