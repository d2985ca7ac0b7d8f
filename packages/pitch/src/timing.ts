/** Shot timing: durations are whole milliseconds that add up exactly to the brief's length. */
export const MIN_SHOT_MS = 500;
export const MAX_SHOT_MS = 60_000;
export const MAX_SHOTS = 24;
/** Below this a viewer cannot take a shot in; no planned shot is shorter. */
export const READABLE_SHOT_MS = 1500;
/** The writer plans at most one shot per this much running time, so shots average a comfortable length. */
export const PLANNED_SHOT_MS = 2000;
const QUANTUM_MS = 100;

/** How many shots a video of this length can hold: enough to keep each under the maximum, few enough to read. */
export function shotCountRange(totalMs: number): { min: number; max: number } {
  const min = Math.max(1, Math.ceil(totalMs / MAX_SHOT_MS));
  const max = Math.min(MAX_SHOTS, Math.max(min, Math.floor(totalMs / PLANNED_SHOT_MS)));
  return { min, max };
}

/**
 * Splits `totalMs` across shots in proportion to their weights. Every shot gets a readable
 * floor first, times land on tenths of a second, and the few leftover milliseconds go to a
 * shot with room for them.
 */
export function splitDuration(totalMs: number, weights: number[]): number[] {
  const n = weights.length;
  if (!Number.isInteger(totalMs) || n < 1 || n * MIN_SHOT_MS > totalMs || n * MAX_SHOT_MS < totalMs) {
    throw new RangeError(`Cannot split ${totalMs} ms into ${n} shots of ${MIN_SHOT_MS} to ${MAX_SHOT_MS} ms`);
  }
  const units = Math.floor(totalMs / QUANTUM_MS);
  const maxUnits = MAX_SHOT_MS / QUANTUM_MS;
  const floorUnits = Math.min(READABLE_SHOT_MS / QUANTUM_MS, Math.floor(units / n));
  const given = weights.map(() => floorUnits);
  const safe = weights.map((w) => (Number.isFinite(w) && w > 0 ? w : 0.01));

  let remaining = units - n * floorUnits;
  let open = given.map((_, i) => i);
  while (remaining > 0 && open.length > 0) {
    const shares = proportional(remaining, open.map((i) => safe[i]!));
    let handed = 0;
    open.forEach((i, k) => {
      const take = Math.min(shares[k]!, maxUnits - given[i]!);
      given[i]! += take;
      handed += take;
    });
    remaining -= handed;
    open = open.filter((i) => given[i]! < maxUnits);
  }

  const durations = given.map((u) => u * QUANTUM_MS);
  const leftover = totalMs - units * QUANTUM_MS;
  const roomy = durations.findIndex((d) => d + leftover <= MAX_SHOT_MS);
  durations[roomy]! += leftover;
  return durations;
}

/** Whole shares of `amount` in proportion to `weights`, largest remainders first. */
function proportional(amount: number, weights: number[]): number[] {
  const total = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (amount * w) / total);
  const shares = exact.map(Math.floor);
  let rest = amount - shares.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => ({ i, fraction: x - Math.floor(x) })).sort((a, b) => b.fraction - a.fraction || a.i - b.i);
  for (const { i } of order) {
    if (rest-- <= 0) break;
    shares[i]! += 1;
  }
  return shares;
}
