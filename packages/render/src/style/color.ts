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

/** Near-white on dark backgrounds, near-black on light ones. */
export function readableOn(background: string): string {
  return contrast('#f5f7fa', background) >= contrast('#11151c', background) ? '#f5f7fa' : '#11151c';
}

/**
 * `color` as it is when it reads at `minContrast` against `background`; otherwise moved towards
 * the readable text colour just far enough, so a brand colour keeps its hue where it can.
 */
export function legibleOn(background: string, color: string, minContrast: number): string {
  if (contrast(color, background) >= minContrast) return color;
  const target = readableOn(background);
  for (let step = 1; step < 10; step++) {
    const moved = mix(color, target, step / 10);
    if (contrast(moved, background) >= minContrast) return moved;
  }
  return target;
}
