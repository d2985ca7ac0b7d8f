import { createCanvas } from '../canvas.ts';

export type Rgb = { r: number; g: number; b: number };

let parser: ReturnType<ReturnType<typeof createCanvas>['getContext']> | null = null;

/**
 * Any CSS colour a brand may send ("#0af", "rebeccapurple", "rgb(0 128 255)", "hsl(…)") as
 * #rrggbb, or null when it is not one. The canvas's own CSS parser reads it; alpha is dropped.
 */
export function normalizeColor(input: string | null | undefined): string | null {
  if (!input?.trim()) return null;
  parser ??= createCanvas(1, 1).getContext('2d');
  for (const sentinel of ['#000001', '#000002']) {
    parser.fillStyle = sentinel;
    parser.fillStyle = input.trim();
    const parsed = String(parser.fillStyle);
    if (parsed === sentinel) continue;
    if (/^#[0-9a-f]{6}$/.test(parsed)) return parsed;
    const rgba = /^rgba\((\d+), (\d+), (\d+), ([\d.]+)\)$/.exec(parsed);
    if (rgba && Number(rgba[4]) > 0) return toHex({ r: Number(rgba[1]), g: Number(rgba[2]), b: Number(rgba[3]) });
    return null;
  }
  return null;
}

export function toRgb(hex: string): Rgb {
  const value = Number.parseInt(hex.slice(1), 16);
  return { r: (value >> 16) & 255, g: (value >> 8) & 255, b: value & 255 };
}

export function toHex({ r, g, b }: Rgb): string {
  return `#${[r, g, b].map((c) => Math.round(Math.min(255, Math.max(0, c))).toString(16).padStart(2, '0')).join('')}`;
}

export function withAlpha(hex: string, alpha: number): string {
  const { r, g, b } = toRgb(hex);
  return `rgba(${r}, ${g}, ${b}, ${alpha})`;
}

/** `a` moved towards `b` by `t` (0 to 1). */
export function mix(a: string, b: string, t: number): string {
  const x = toRgb(a);
  const y = toRgb(b);
  return toHex({ r: x.r + (y.r - x.r) * t, g: x.g + (y.g - x.g) * t, b: x.b + (y.b - x.b) * t });
}

/** WCAG relative luminance. */
export function luminance(hex: string): number {
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const { r, g, b } = toRgb(hex);
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

export function isDark(hex: string): boolean {
  return luminance(hex) < 0.2;
}

/** WCAG's minimum contrast for text, and for large text (bold from ~19 px, else from 24 px). */
export const TEXT_CONTRAST = 4.5;
export const LARGE_TEXT_CONTRAST = 3;

/**
 * Near-white on dark backgrounds, near-black on light ones; white or black itself on the
 * mid-tones where neither reads at 4.5:1 (one of them always does).
 */
export function readableOn(background: string): string {
  const near = contrast('#f5f7fa', background) >= contrast('#11151c', background) ? '#f5f7fa' : '#11151c';
  if (contrast(near, background) >= TEXT_CONTRAST) return near;
  return contrast('#ffffff', background) >= contrast('#000000', background) ? '#ffffff' : '#000000';
}

/**
 * `color` as it is when it reads at `minContrast` against every one of `backgrounds` (the
 * colours a text may be drawn over: a background and the glows on it); otherwise moved towards
 * the readable text colour just far enough, so a brand colour keeps its hue where it can.
 */
export function legibleOn(backgrounds: string | string[], color: string, minContrast: number): string {
  const behind = Array.isArray(backgrounds) ? backgrounds : [backgrounds];
  const reads = (candidate: string) => behind.every((background) => contrast(candidate, background) >= minContrast);
  if (reads(color)) return color;
  const target = readableOn(behind[0]!);
  for (let step = 1; step <= 20; step++) {
    const moved = mix(color, target, step / 20);
    if (reads(moved)) return moved;
  }
  const extreme = isDark(behind[0]!) ? '#ffffff' : '#000000';
  return reads(target) || !reads(extreme) ? target : extreme;
}
