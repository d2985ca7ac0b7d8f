import { contrast, mix, normalizeColor, readableOn } from '../style/color.ts';
import type { BrandStyle } from './schema.ts';

export const DEFAULT_BACKGROUND = '#0e1116';
export const DEFAULT_ACCENT = '#6d5dfc';

export interface BrandInput {
  name?: string | null;
  primaryColor?: string | null;
  backgroundColor?: string | null;
  fontFamily?: string | null;
  logoUrl?: string | null;
}

/** Brand colours as #rrggbb with readable text; an accent lost in the background is lifted. */
export function brandStyle(input: BrandInput): BrandStyle {
  const backgroundColor = normalizeColor(input.backgroundColor) ?? DEFAULT_BACKGROUND;
  const textColor = readableOn(backgroundColor);
  let primaryColor = normalizeColor(input.primaryColor) ?? DEFAULT_ACCENT;
  if (contrast(primaryColor, backgroundColor) < 1.5) primaryColor = mix(primaryColor, textColor, 0.45);
  return {
    name: input.name?.trim() || null,
    primaryColor,
    backgroundColor,
    textColor,
    fontFamily: input.fontFamily?.trim() || null,
    logoUrl: input.logoUrl ?? null,
  };
}
