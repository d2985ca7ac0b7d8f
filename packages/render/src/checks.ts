/**
 * The renderer's own readers, for checking a render's inputs before it is queued (the gateway):
 * an upload's type and size as the renderer will read them, and its colour parser. Light to
 * import: no drawing, no ffmpeg.
 */
export { imageDimensions, jpegIsWhole, MAX_PICTURE_PIXELS, sniff, type SniffedType } from './media/sniff.ts';
export { normalizeColor } from './style/color.ts';
