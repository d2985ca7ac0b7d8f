import type { Canvas } from '@napi-rs/canvas';
import type { BrandStyle } from '../composition/schema.ts';
import { isDark, mix } from '../style/color.ts';
import { monoStack, sansStack } from '../style/fonts.ts';

export interface Theme {
  background: string;
  accent: string;
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

export function themeFor(brand: BrandStyle, logo: Canvas | null): Theme {
  const { backgroundColor: background, textColor: text, primaryColor: accent } = brand;
  return {
    background, accent, text,
    muted: mix(text, background, 0.4),
    surface: mix(background, text, 0.07),
    dark: isDark(background),
    sans: sansStack(brand.fontFamily),
    mono: monoStack(),
    brandName: brand.name,
    logo,
  };
}
