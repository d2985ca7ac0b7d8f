/** How long a statement holds still once its key words are lit, before it drifts: a short one never needs to. */
export const DRIFT_AFTER_MS = 500;

/**
 * A slow upward drift of a card from `from` on, so that a card held long never stands still:
 * whole pixels (crisp type, and frames in between stay the same for the encoder), about 24 pixels
 * at 1080 over the scene, at most 5 a second (each step redraws the card), never slower than 2.5
 * (a step of a pixel or two on a small card changes too little to be seen), the first at once.
 */
export function driftOffset(t: number, from: number, durationMs: number, unit: number): number {
  if (t <= from) return 0;
  const speed = Math.max(2.5, Math.min(5 * unit, (24 * unit) / Math.max(0.5, durationMs / 1000)));
  return -Math.ceil((speed * (t - from)) / 1000);
}
