import { describe, expect, it } from 'vitest';
import { composeProduction } from '../composition/compose-production.ts';
import type { Assets } from '../media/assets.ts';
import { planComposition } from '../plan/plan.ts';
import { mix, toRgb } from '../style/color.ts';
import { sampleBrief, samplePitch, CODE_FILE } from '../testing/fixtures.ts';
import { measure } from './text.ts';
import { Compositor } from './compositor.ts';
import { themeFor } from './theme.ts';

const url = (path: string) => `https://media.example.com${path}`;
const noAssets: Assets = { images: new Map(), videos: new Map(), logo: null };

/** Pixels of the frame within `tolerance` of a colour, counted inside `area`. */
function count(data: Buffer, width: number, area: { x: number; y: number; width: number; height: number }, hex: string, tolerance = 10): number {
  const { r, g, b } = toRgb(hex);
  let found = 0;
  for (let y = area.y; y < area.y + area.height; y++) {
    for (let x = area.x; x < area.x + area.width; x++) {
      const i = (y * width + x) * 4;
      if (Math.abs((data[i] ?? 0) - r) <= tolerance && Math.abs((data[i + 1] ?? 0) - g) <= tolerance && Math.abs((data[i + 2] ?? 0) - b) <= tolerance) found++;
    }
  }
  return found;
}

describe('a code scene', () => {
  it('draws an editor with syntax colours, line numbers and the changed lines marked, scrolled to the change', async () => {
    const pitch = samplePitch([{ title: 'Configurable timeouts', durationMs: 3000, codePaths: [CODE_FILE.path] }]);
    const composition = composeProduction({ brief: sampleBrief(url), pitch });
    const plan = await planComposition(composition, themeFor(composition.brand, null));
    const code = plan.scenes[0]?.code;
    if (!code) throw new Error('no code plan');
    const compositor = new Compositor(plan, noAssets);
    // Draw up to a frame after the scroll has landed and the changed lines lit up, that one whole.
    const last = Math.ceil(((code.scrollEnd + 600) * 30) / 1000);
    for (let frame = 0; frame <= last; frame++) await compositor.draw(frame, { whole: frame === last });
    const pixels = compositor.canvas.data();
    const { width } = composition;
    const viewport = { x: Math.round(code.viewport.x), y: Math.round(code.viewport.y), width: Math.round(code.viewport.width), height: Math.round(code.viewport.height) };

    // github-dark: keywords and operators (return, const, +) #f97583, constants and properties #79b8ff, comments #6a737d.
    expect(count(pixels, width, viewport, '#f97583')).toBeGreaterThan(150);
    expect(count(pixels, width, viewport, '#79b8ff')).toBeGreaterThan(150);
    expect(count(pixels, width, viewport, '#6a737d')).toBeGreaterThan(150);
    // Line numbers in the gutter, in the theme's foreground faded towards its background.
    const gutter = { ...viewport, width: Math.round(code.gutterWidth - 2 * code.charWidth) };
    expect(count(pixels, width, gutter, mix(code.highlighted.foreground, code.highlighted.background, 0.55))).toBeGreaterThan(200);
    // The editor scrolled: the changed line (61 of 90) is on screen, the first lines are not.
    const firstVisible = Math.round(code.scrollTo / code.lineHeight);
    expect(firstVisible).toBeGreaterThan(0);
    const focus = code.focusRow;
    expect(focus).toBeGreaterThanOrEqual(firstVisible);
    expect(focus + 1).toBeLessThan(firstVisible + code.visibleLines);
    // The removed and added lines have their red and green rows and gutter bars.
    const row = (index: number) => ({ ...viewport, y: Math.round(code.viewport.y + 20 * plan.layout.unit + (index - firstVisible) * code.lineHeight), height: code.lineHeight });
    expect(count(pixels, width, { ...row(focus), width: 6 }, '#f85149', 30)).toBeGreaterThan(0);
    expect(count(pixels, width, { ...row(focus + 1), width: 6 }, '#2ea043', 30)).toBeGreaterThan(0);
    const tint = (index: number) => {
      const { x, y } = row(index);
      const at = ((y + 4) * width + x + Math.round(viewport.width * 0.9)) * 4;
      return { r: pixels[at] ?? 0, g: pixels[at + 1] ?? 0, b: pixels[at + 2] ?? 0 };
    };
    const removed = tint(focus);
    const added = tint(focus + 1);
    const context = tint(focus + 3);
    expect(removed.r).toBeGreaterThan(context.r + 10);
    expect(added.g).toBeGreaterThan(context.g + 10);
    compositor.dispose();
  });

  it('wraps a changed line too long for a phone-shaped frame onto rows that all fit, none of it cut off', async () => {
    const long = '  const timeoutMs = options.timeoutMs ?? settings.network.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS;';
    const file = { ...CODE_FILE, patch: CODE_FILE.patch.replace('+  const timeoutMs = options.timeoutMs ?? 30_000;', `+${long}`) };
    const source = file.source.replace('  const timeoutMs = options.timeoutMs ?? 30_000;', long);
    const phone = sampleBrief(url, { aspect: '9:16' });
    const brief = { ...phone, code: [{ ...phone.code[0]!, ...file, source }] };
    const pitch = samplePitch([{ title: 'Configurable timeouts', durationMs: 3000, codePaths: [CODE_FILE.path] }]);
    const composition = composeProduction({ brief, pitch });
    const theme = themeFor(composition.brand, null);
    const code = (await planComposition(composition, theme)).scenes[0]?.code;
    if (!code) throw new Error('no code plan');

    const added = code.rows.filter((row) => row.change === 'added');
    expect(added.length).toBeGreaterThan(1);
    expect(added.map((row) => row.tokens.map((t) => t.text).join('').trim()).join(' ')).toBe(long.trim());
    expect(added.slice(1).every((row) => row.number === null)).toBe(true);
    for (const row of code.rows) {
      const width = row.indent * code.charWidth + measure(row.tokens.map((t) => t.text).join(''), code.fontSize, theme.mono, 400);
      expect(code.gutterWidth + width).toBeLessThanOrEqual(code.viewport.width);
    }
    // Every row of the change is on screen once the editor has scrolled.
    const firstVisible = code.scrollTo / code.lineHeight;
    const rowsOfChange = code.rows.flatMap((row, i) => (row.change === 'context' ? [] : [i]));
    expect(Math.min(...rowsOfChange)).toBeGreaterThanOrEqual(firstVisible);
    expect(Math.max(...rowsOfChange)).toBeLessThan(firstVisible + code.visibleLines);
  });

  it('scrolls through at most 40 rows to the change, however many rows the long lines above it wrap onto', async () => {
    const long = (i: number) => `  return input.length + ${i}; // ${'a comment long enough to wrap onto several rows of a phone-shaped editor '.repeat(2)}`;
    const source = Array.from({ length: 90 }, (_, i) => (i === 60 ? '  const timeoutMs = options.timeoutMs ?? 30_000;' : long(i))).join('\n');
    const phone = sampleBrief(url, { aspect: '9:16' });
    const brief = { ...phone, code: [{ ...phone.code[0]!, source }] };
    const pitch = samplePitch([{ title: 'Configurable timeouts', durationMs: 3000, codePaths: [CODE_FILE.path] }]);
    const composition = composeProduction({ brief, pitch });
    const code = (await planComposition(composition, themeFor(composition.brand, null))).scenes[0]?.code;
    if (!code) throw new Error('no code plan');
    // 40 lines of three rows and more lie above the change: the scroll starts 40 rows above where it lands.
    expect(code.rows.slice(0, code.focusRow).length).toBeGreaterThan(40);
    expect(code.scrollTo / code.lineHeight).toBe(40);
    expect(code.rows.length).toBeLessThanOrEqual(40 + code.visibleLines + 1);
    expect(code.rows[code.focusRow]?.change).toBe('removed');
  });
});
