/**
 * A slow upward drift of a scene's words once they have come in, so that a held card never
 * stands still: whole pixels (crisp type, and frames in between stay the same for the encoder),
 * about 36 pixels at 1080 over the scene, never slower than a pixel every 0.6 s.
 */
export function driftOffset(t: number, from: number, durationMs: number, unit: number): number {
  const speed = Math.max(1.6, Math.min(8 * unit, (36 * unit) / Math.max(0.5, durationMs / 1000)));
  return -Math.round((speed * Math.max(0, t - from)) / 1000);
}
