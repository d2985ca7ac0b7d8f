import { describe, expect, it } from 'vitest';
import type { BrandStyle } from '../composition/schema.ts';
import { contrast, toRgb } from '../style/color.ts';
import { themeFor } from './theme.ts';

const brand = (colors: Pick<BrandStyle, 'primaryColor' | 'backgroundColor' | 'textColor'>): BrandStyle =>
  ({ name: 'Acme', fontFamily: null, logoUrl: null, ...colors });

describe('the theme drawn from a brand', () => {
  it('keeps the brand colours as given when text in them reads', () => {
    const theme = themeFor(brand({ primaryColor: '#2563eb', backgroundColor: '#0b1020', textColor: '#f5f7fa' }), null);
    expect(theme).toMatchObject({ accent: '#2563eb', accentText: '#2563eb', text: '#f5f7fa', background: '#0b1020' });
  });

  it('darkens a light accent for text on a light background, keeping its hue; bars keep the accent itself', () => {
    const theme = themeFor(brand({ primaryColor: '#ffd60a', backgroundColor: '#ffffff', textColor: '#11151c' }), null);
    expect(theme.accent).toBe('#ffd60a');
    expect(contrast(theme.accentText, '#ffffff')).toBeGreaterThanOrEqual(3);
    const { r, g, b } = toRgb(theme.accentText);
    expect(r).toBeGreaterThan(b); // still a yellow-brown, not a grey
    expect(g).toBeGreaterThan(b);
  });

  it('makes text that would not read on the background readable', () => {
    const theme = themeFor(brand({ primaryColor: '#2563eb', backgroundColor: '#ffffff', textColor: '#eeeeee' }), null);
    expect(contrast(theme.text, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrast(theme.muted, '#ffffff')).toBeGreaterThan(1.5);
  });
});
