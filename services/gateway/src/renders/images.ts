import { imageDimensions, jpegIsWhole, MAX_PICTURE_PIXELS, sniff, type SniffedType } from '@vp/render/checks';

/** What an upload is, by its bytes (its name and declared type are the client's word only). */
export type ImageType = { mime: 'image/png' | 'image/jpeg' | 'image/webp'; extension: 'png' | 'jpg' | 'webp' };

const ACCEPTED: Partial<Record<SniffedType, ImageType>> = {
  png: { mime: 'image/png', extension: 'png' },
  jpeg: { mime: 'image/jpeg', extension: 'jpg' },
  webp: { mime: 'image/webp', extension: 'webp' },
};

/**
 * Checks an upload as the renderer will read it, before anything is stored: its type by its
 * bytes, its size in pixels from its header (with the renderer's own reader and limit), and that
 * the file is whole. The pixels themselves are decoded by the render farm; a damaged file that
 * passes these checks fails the render there with a readable error.
 */
export function checkImage(bytes: Buffer): { ok: true; type: ImageType } | { ok: false; problem: string } {
  const kind = sniff(bytes);
  const type = kind && ACCEPTED[kind];
  if (!kind || !type) return { ok: false, problem: 'is not a PNG, JPEG or WebP image' };
  const size = imageDimensions(bytes, kind);
  if (!size?.width || !size.height || !whole(bytes, kind)) return { ok: false, problem: 'could not be read: the file is damaged or cut short' };
  if (size.width * size.height > MAX_PICTURE_PIXELS) {
    return { ok: false, problem: `is too large: ${size.width} × ${size.height} pixels, more than ${MAX_PICTURE_PIXELS / 1_000_000} million` };
  }
  return { ok: true, type };
}

/**
 * The file reaches its own end: a PNG's IEND chunk, a JPEG's end-of-image marker after its image
 * data, a WebP's RIFF length. Bytes after it are ignored, as decoders do.
 */
function whole(bytes: Buffer, kind: SniffedType): boolean {
  if (kind === 'png') return bytes.lastIndexOf('IEND') > 8;
  if (kind === 'jpeg') return jpegIsWhole(bytes);
  return bytes.length >= 8 + bytes.readUInt32LE(4);
}
