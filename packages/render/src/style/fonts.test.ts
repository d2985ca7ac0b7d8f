import { createCanvas } from '../canvas.ts';
import { describe, expect, it } from 'vitest';
import { RENDER_FONTS } from '../system-packages.ts';
import { font, monoStack, sansStack } from './fonts.ts';

/** The RGBA pixels of a line of text typed in white on black, 80 px bold. */
function typed(text: string, family: string): Uint8ClampedArray {
  const canvas = createCanvas(400, 120);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#000000';
  ctx.fillRect(0, 0, 400, 120);
  ctx.fillStyle = '#ffffff';
  ctx.font = font(80, family, 700);
  ctx.fillText(text, 10, 95);
  return ctx.getImageData(0, 0, 400, 120).data;
}

/** Pixels that are clearly coloured: a missing glyph's box is white. */
function colouredPixels(text: string, family: string): number {
  const data = typed(text, family);
  let coloured = 0;
  for (let i = 0; i < data.length; i += 4) {
    const channels = [data[i] ?? 0, data[i + 1] ?? 0, data[i + 2] ?? 0];
    if (Math.max(...channels) - Math.min(...channels) > 80) coloured++;
  }
  return coloured;
}

/** A character's picture, to compare with another's. */
function glyph(character: string, family: string): string {
  return Buffer.from(typed(character, family)).toString('base64');
}

describe('font stacks', () => {
  it('type emoji in colour, in titles, with a brand font that is not installed, and in code', () => {
    expect(colouredPixels('🚀 ✨', sansStack(null))).toBeGreaterThan(500);
    expect(colouredPixels('🚀 ✨', sansStack('Some Brand Font'))).toBeGreaterThan(500);
    expect(colouredPixels('// 🐛', monoStack())).toBeGreaterThan(500);
  });

  it('type Chinese, Japanese and Korean: each character its own glyph, not the same missing-glyph box', () => {
    const drawn = ['公', '開', '한', '文'].map((character) => glyph(character, sansStack(null)));
    expect(new Set(drawn).size).toBe(4);
    expect(drawn.every((pixels) => pixels !== glyph('\u{10FFFD}', sansStack(null)))).toBe(true);
  });

  it('type in a brand\'s font when the machine has it, whatever its case; in Noto Sans when it does not', () => {
    for (const brand of ['Inter', 'roboto', 'Open Sans', 'LATO']) {
      expect(sansStack(brand).toLowerCase().startsWith(`"${brand.toLowerCase()}"`)).toBe(true);
      expect(glyph('Rg', sansStack(brand))).not.toBe(glyph('Rg', sansStack(null)));
    }
    expect(sansStack('Some Brand Font').startsWith('"Noto Sans"')).toBe(true);
    expect(RENDER_FONTS.map((f) => f.family)).toEqual(expect.arrayContaining(['Inter', 'Roboto', 'Open Sans', 'Lato']));
  });

  it('type code in JetBrains Mono', () => {
    expect(monoStack().startsWith('"JetBrains Mono"')).toBe(true);
    expect(glyph('0g', monoStack())).not.toBe(glyph('0g', '"DejaVu Sans Mono"'));
  });

  it('type plain text in white, with no colour', () => {
    expect(colouredPixels('Release 2.4', sansStack(null))).toBe(0);
  });
});
