import type { Canvas } from '../canvas.ts';
import type { BrandStyle } from '../composition/schema.ts';
import { isDark, legibleOn, mix } from '../style/color.ts';
import { monoStack, sansStack } from '../style/fonts.ts';

export interface Theme {
  background: string;
  accent: string;
  /** The accent as text: legible on the background (a yellow accent on white darkens). */
  accentText: string;
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

/** WCAG's minimum contrast for body text, and for large bold text such as the eyebrow. */
const TEXT_CONTRAST = 4.5;
const LARGE_TEXT_CONTRAST = 3;

/** The brand's colours, each kept as given unless text drawn in it would not read. */
export function themeFor(brand: BrandStyle, logo: Canvas | null): Theme {
  const { backgroundColor: background, primaryColor: accent } = brand;
  const text = legibleOn(background, brand.textColor, TEXT_CONTRAST);
  return {
    background, accent, text,
    accentText: legibleOn(background, accent, LARGE_TEXT_CONTRAST),
    muted: mix(text, background, 0.4),
    surface: mix(background, text, 0.07),
    dark: isDark(background),
    sans: sansStack(brand.fontFamily),
    mono: monoStack(),
    brandName: brand.name,
    logo,
  };
}
