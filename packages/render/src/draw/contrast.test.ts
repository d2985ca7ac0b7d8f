import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { brandStyle } from '../composition/brand.ts';
import type { CodePlan } from '../plan/code-plan.ts';
import { contrast, mix, toRgb } from '../style/color.ts';
import { codeColours } from './scenes/code-look.ts';
import { themeFor } from './theme.ts';

const colour = fc.integer({ min: 0, max: 0xffffff }).map((n) => `#${n.toString(16).padStart(6, '0')}`);
const themeOf = (primaryColor: string, backgroundColor: string) => themeFor(brandStyle({ name: 'Acme', primaryColor, backgroundColor }), null);

/** WCAG AA: 4.5:1 for text, 3:1 for large text (the labels and lit words, bold and large). */
const AA = { text: 4.5, large: 3 };

describe('contrast, for any brand colours', () => {
  it('sets every text of the frame in a colour that reads against all that is behind it: the background and its glows, the accent pill', () => {
    fc.assert(fc.property(colour, colour, (primary, background) => {
      const theme = themeOf(primary, background);
      for (const behind of theme.backdrops) {
        expect(contrast(theme.text, behind)).toBeGreaterThanOrEqual(AA.text);
        expect(contrast(theme.muted, behind)).toBeGreaterThanOrEqual(AA.text);
        expect(contrast(theme.accentText, behind)).toBeGreaterThanOrEqual(AA.large);
      }
      expect(contrast(theme.onAccent, theme.accent)).toBeGreaterThanOrEqual(AA.text);
    }), { numRuns: 2000 });
  });

  it('picks a darker shade of a light primary on a light background for words, and keeps its hue', () => {
    const theme = themeOf('#ffe08a', '#fffaf0');
    expect(contrast(theme.accentText, '#fffaf0')).toBeGreaterThanOrEqual(AA.large);
    const [shade, primary] = [toRgb(theme.accentText), toRgb('#ffe08a')];
    expect(shade.r + shade.g + shade.b).toBeLessThan(primary.r + primary.g + primary.b);
    expect(shade.r).toBeGreaterThan(shade.b);
    expect(contrast(theme.onAccent, theme.accent)).toBeGreaterThanOrEqual(AA.text);
  });

  it('sets the editor\'s words (code, line numbers, marks, counts, path, status) to read on every row and bar, the sweeping band included', () => {
    const editors = [{ background: '#24292e', foreground: '#e1e4e8', dark: true }, { background: '#ffffff', foreground: '#24292e', dark: false }];
    fc.assert(fc.property(colour, colour, fc.constantFrom(...editors), fc.array(colour, { minLength: 1, maxLength: 6 }), (primary, background, editor, tokens) => {
      const theme = { ...themeOf(primary, background), dark: editor.dark };
      const colours = codeColours({ highlighted: { background: editor.background, foreground: editor.foreground } } as CodePlan, theme);
      const rows = { context: editor.background, added: colours.addedRow, removed: colours.removedRow };
      const under = (row: string) => [row, mix(row, theme.accent, colours.sweepAlpha)];
      const everyRow = Object.values(rows).flatMap(under);
      for (const [change, row] of Object.entries(rows) as [keyof typeof rows, string][]) {
        for (const token of tokens) for (const behind of under(row)) expect(contrast(colours.token(token, change), behind)).toBeGreaterThanOrEqual(AA.text);
      }
      for (const behind of everyRow) for (const words of [colours.gutter, colours.added, colours.removed]) expect(contrast(words, behind)).toBeGreaterThanOrEqual(AA.text);
      for (const words of [colours.added, colours.removed, colours.path]) expect(contrast(words, colours.bar)).toBeGreaterThanOrEqual(AA.text);
      expect(contrast(colours.statusText, colours.statusFill)).toBeGreaterThanOrEqual(AA.text);
    }), { numRuns: 500 });
  });
});
