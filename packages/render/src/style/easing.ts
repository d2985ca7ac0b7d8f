export type Easing = (t: number) => number;

export const clamp01 = (t: number) => Math.min(1, Math.max(0, t));

/** Progress of `t` through the window [start, start + duration], clamped to 0..1. */
export function progress(t: number, start: number, duration: number): number {
  return duration <= 0 ? (t >= start ? 1 : 0) : clamp01((t - start) / duration);
}

export const linear: Easing = (t) => t;
export const easeOutCubic: Easing = (t) => 1 - (1 - t) ** 3;
export const easeInCubic: Easing = (t) => t ** 3;
export const easeInOutCubic: Easing = (t) => (t < 0.5 ? 4 * t ** 3 : 1 - (-2 * t + 2) ** 3 / 2);
export const easeOutExpo: Easing = (t) => (t >= 1 ? 1 : 1 - 2 ** (-10 * t));
export const easeInOutSine: Easing = (t) => -(Math.cos(Math.PI * t) - 1) / 2;
/** Overshoots a little before settling: for logos and badges. */
export const easeOutBack: Easing = (t) => {
  const c1 = 1.4;
  return 1 + (c1 + 1) * (t - 1) ** 3 + c1 * (t - 1) ** 2;
};

export function lerp(a: number, b: number, t: number): number {
  return a + (b - a) * t;
}
