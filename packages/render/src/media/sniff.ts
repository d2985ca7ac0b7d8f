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

/** The `ispe` (image spatial extents) property: version and flags, then width and height. */
function avifDimensions(bytes: Buffer) {
  const box = bytes.indexOf('ispe');
  return box < 0 ? null : { width: bytes.readUInt32BE(box + 8), height: bytes.readUInt32BE(box + 12) };
}

function jpegDimensions(bytes: Buffer) {
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return null;
    const marker = bytes[offset + 1] as number;
    // Start-of-frame markers carry the size; 0xc4 (DHT), 0xc8 (JPG) and 0xcc (DAC) do not.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: bytes.readUInt16BE(offset + 5), width: bytes.readUInt16BE(offset + 7) };
    }
    offset += 2 + bytes.readUInt16BE(offset + 2);
  }
  return null;
}
