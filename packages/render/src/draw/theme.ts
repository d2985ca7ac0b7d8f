import type { Canvas } from '../canvas.ts';
import type { BrandStyle } from '../composition/schema.ts';
import { contrast, isDark, LARGE_TEXT_CONTRAST, legibleOn, mix, readableOn, TEXT_CONTRAST } from '../style/color.ts';

const GLOW_STRENGTHS = [1, 0.5, 0.25, 0];
import { monoStack, sansStack } from '../style/fonts.ts';

export interface Theme {
  background: string;
  /** The glows over the background: the accent's at the top right, the text's at the bottom left. */
  glows: { accent: number; text: number };
  /** Every colour words may be drawn over on the background: it, and it under each glow at its strongest. */
  backdrops: string[];
  accent: string;
  /** The accent as large text (labels, lit words): legible on every backdrop (a yellow accent on white darkens). */
  accentText: string;
  /** Text on the accent (a caption's pill). */
  onAccent: string;
  text: string;
  /** Secondary text. */
  muted: string;
  /** Cards and panels, a step off the background. */
  surface: string;
  dark: boolean;
  sans: string;
  mono: string;
  brandName: string | null;
  logo: Canvas | null;
}

/**
 * The brand's colours, each kept as given unless text drawn in it would not read against what
 * is behind it (WCAG AA: 4.5:1, 3:1 for large text), glows included.
 */
export function themeFor(brand: BrandStyle, logo: Canvas | null): Theme {
  const { backgroundColor: background, primaryColor: accent } = brand;
  const dark = isDark(background);
  const base = readableOn(background);
  const text = legibleOn(background, brand.textColor, TEXT_CONTRAST);
  // The glows are as strong as the text still reads over them: fainter, or none, on a mid-tone background.
  let glows = { accent: 0, text: 0 };
  let backdrops = [background];
  for (const strength of GLOW_STRENGTHS) {
    glows = { accent: (dark ? 0.2 : 0.14) * strength, text: (dark ? 0.05 : 0.04) * strength };
    backdrops = [background, mix(background, accent, glows.accent), mix(background, base, glows.text)];
    if (backdrops.every((behind) => contrast(text, behind) >= TEXT_CONTRAST)) break;
  }
  return {
    background, glows, backdrops, accent, text,
    accentText: legibleOn(backdrops, accent, LARGE_TEXT_CONTRAST),
    onAccent: readableOn(accent),
    muted: legibleOn(backdrops, mix(text, background, 0.4), TEXT_CONTRAST),
    surface: mix(background, text, 0.07),
    dark,
    sans: sansStack(brand.fontFamily),
    mono: monoStack(),
    brandName: brand.name,
    logo,
  };
}
