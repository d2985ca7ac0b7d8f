import type { Canvas } from '../../canvas.ts';
import type { CodePlan } from '../../plan/code-plan.ts';
import { contrast, legibleOn, mix, readableOn, TEXT_CONTRAST } from '../../style/color.ts';
import { font } from '../../style/fonts.ts';
import { layer, PanelShadow, roundedRect } from '../shapes.ts';
import { measure } from '../text.ts';
import type { Theme } from '../theme.ts';

const ADDED = '#2ea043';
const REMOVED = '#f85149';
/** How strongly a changed row is tinted, and the accent band that sweeps over the rows at its strongest (fainter when words would not read on it). */
const TINT = { dark: 0.2, light: 0.14 };
const SWEEP_ALPHAS = [0.16, 0.1, 0.05, 0];

/**
 * The editor's colours: the theme's (github-dark or -light), the rows' tints, and every colour
 * words are drawn in, each made legible (WCAG AA, 4.5:1) against every row it may sit on, the
 * sweeping band over it included.
 */
export interface CodeColours {
  background: string;
  /** The sweeping band's strength. */
  sweepAlpha: number;
  bar: string;
  /** Rows as the layer tints them: context rows are the background. */
  addedRow: string;
  removedRow: string;
  /** The +/- marks and counts: text, legible on every row and on the title bar. */
  added: string;
  removed: string;
  /** The bars beside changed lines: shapes, in the diff's own green and red. */
  addedBar: string;
  removedBar: string;
  gutter: string;
  path: string;
  statusFill: string;
  statusText: string;
  caret: string;
  /** A token's colour on a row of this kind, legible there. */
  token(color: string, change: 'added' | 'removed' | 'context'): string;
  mono: string;
}

export function codeColours(code: CodePlan, theme: Theme): CodeColours {
  const { background, foreground } = code.highlighted;
  const tint = theme.dark ? TINT.dark : TINT.light;
  const rows = { context: background, added: mix(background, ADDED, tint), removed: mix(background, REMOVED, tint) };
  const bar = mix(background, foreground, 0.06);
  // Some colour must read on every row, bar and band at once: white or black, at the least.
  const readsOn = (behind: string[]) => ['#ffffff', '#000000'].some((c) => behind.every((b) => contrast(c, b) >= TEXT_CONTRAST));
  const sweepAlpha = SWEEP_ALPHAS.find((a) => readsOn([bar, ...Object.values(rows).flatMap((row) => [row, mix(row, theme.accent, a)])])) ?? 0;
  const behind = (row: string) => [row, mix(row, theme.accent, sweepAlpha)];
  const everyRow = Object.values(rows).flatMap(behind);
  const statusFill = mix(bar, theme.accent, 0.9);
  const cache = new Map<string, string>();
  return {
    background, sweepAlpha, bar, addedRow: rows.added, removedRow: rows.removed,
    added: legibleOn([bar, ...everyRow], ADDED, TEXT_CONTRAST),
    removed: legibleOn([bar, ...everyRow], REMOVED, TEXT_CONTRAST),
    addedBar: ADDED,
    removedBar: REMOVED,
    gutter: legibleOn(everyRow, mix(foreground, background, 0.55), TEXT_CONTRAST),
    path: legibleOn(bar, mix(foreground, bar, 0.15), TEXT_CONTRAST),
    statusFill,
    statusText: readableOn(statusFill),
    caret: theme.accent,
    mono: theme.mono,
    token(color, change) {
      const key = `${color}${change}`;
      let legible = cache.get(key);
      if (!legible) {
        // A removed line's code is dimmed a little, as far as it still reads.
        const wanted = change === 'removed' ? mix(color, background, 0.35) : color;
        legible = legibleOn(behind(rows[change]), wanted, TEXT_CONTRAST);
        cache.set(key, legible);
      }
      return legible;
    },
  };
}

/** Shadow, body and title bar: three dots, the path, the status and the +/- counts. */
export function windowLayer(code: CodePlan, theme: Theme, colours: CodeColours, radius: number, u: number): { shadow: PanelShadow; body: Canvas } {
  const { window: rect, titleBarHeight } = code;
  const shadow = new PanelShadow(rect, radius, { blur: 44 * u, color: theme.dark ? 'rgba(0, 0, 0, 0.6)' : 'rgba(15, 20, 30, 0.25)', offsetY: 16 * u });
  const body = layer(rect.width, rect.height, (ctx) => {
    roundedRect(ctx, { x: 0, y: 0, width: rect.width, height: rect.height }, radius);
    ctx.fillStyle = colours.background;
    ctx.fill();
    ctx.save();
    ctx.clip();
    ctx.fillStyle = colours.bar;
    ctx.fillRect(0, 0, rect.width, titleBarHeight);
    ctx.restore();
    const mid = titleBarHeight / 2;
    ['#ff5f57', '#febc2e', '#28c840'].forEach((color, i) => {
      ctx.fillStyle = color;
      ctx.beginPath();
      ctx.arc(30 * u + i * 24 * u, mid, 7 * u, 0, Math.PI * 2);
      ctx.fill();
    });
    const size = 22 * u;
    ctx.textBaseline = 'middle';
    const { excerpt } = code;
    const counts = [`+${excerpt.additions}`, `−${excerpt.deletions}`] as const;
    const countsWidth = measure(counts.join('  '), size, theme.mono, 700);
    const statusText = excerpt.status ?? '';
    const statusWidth = statusText ? measure(statusText, size * 0.8, theme.sans, 700) + 24 * u : 0;
    ctx.font = font(size, theme.mono, 500);
    ctx.fillStyle = colours.path;
    ctx.fillText(pathThatFits(excerpt.path, size, theme.mono, rect.width - 180 * u - countsWidth - statusWidth), 120 * u, mid);
    let x = rect.width - 24 * u - countsWidth;
    ctx.font = font(size, theme.mono, 700);
    ctx.fillStyle = colours.added;
    ctx.fillText(counts[0], x, mid);
    ctx.fillStyle = colours.removed;
    ctx.fillText(counts[1], x + measure(`${counts[0]}  `, size, theme.mono, 700), mid);
    if (statusText) {
      x -= statusWidth + 12 * u;
      ctx.fillStyle = colours.statusFill;
      ctx.beginPath();
      ctx.roundRect(x, mid - size * 0.7, statusWidth, size * 1.4, size * 0.7);
      ctx.fill();
      ctx.font = font(size * 0.8, theme.sans, 700);
      ctx.fillStyle = colours.statusText;
      ctx.fillText(statusText, x + 12 * u, mid);
    }
  });
  return { shadow, body };
}

/**
 * The path as far as it fits, from its end, where the file name is: the folders that fit, whole,
 * else the file name alone (cut at its start only when even that is wider than the bar).
 */
export function pathThatFits(path: string, size: number, family: string, room: number): string {
  const parts = path.split('/');
  for (let from = 0; from < parts.length; from++) {
    const shown = parts.slice(from).join('/');
    if (measure(shown, size, family, 500) <= room) return shown;
  }
  let name = parts.at(-1) ?? path;
  while (name.length > 1 && measure(name, size, family, 500) > room) name = name.slice(1);
  return name;
}

/** Every row that is ever on screen: diff backgrounds, gutter with numbers and markers, coloured tokens. */
export function codeLayer(code: CodePlan, colours: CodeColours, pad: number): Canvas {
  const { rows, viewport, lineHeight, fontSize, charWidth, gutterWidth } = code;
  return layer(viewport.width, pad + rows.length * lineHeight, (ctx) => {
    ctx.textBaseline = 'middle';
    rows.forEach((row, i) => {
      const y = pad + i * lineHeight;
      const mid = y + lineHeight / 2;
      if (row.change !== 'context') {
        ctx.fillStyle = row.change === 'added' ? colours.addedRow : colours.removedRow;
        ctx.fillRect(0, y, viewport.width, lineHeight);
      }
      ctx.font = font(fontSize, colours.mono, 400);
      ctx.fillStyle = row.change === 'context' ? colours.gutter : row.change === 'added' ? colours.added : colours.removed;
      const number = row.number === null ? '' : String(row.number);
      const markerX = gutterWidth - 2 * charWidth;
      ctx.fillText(number, markerX - charWidth * (number.length + 1), mid);
      // The marker only on a line's first row, as in a diff view that wraps.
      if (row.change !== 'context' && row.number !== null) ctx.fillText(row.change === 'added' ? '+' : '−', markerX, mid);
      let x = gutterWidth + row.indent * charWidth;
      for (const token of row.tokens) {
        ctx.font = `${token.italic ? 'italic ' : ''}${font(fontSize, colours.mono, token.bold ? 700 : 400)}`;
        ctx.fillStyle = colours.token(token.color, row.change);
        ctx.fillText(token.text, x, mid);
        x += ctx.measureText(token.text).width;
        if (x > viewport.width) break;
      }
    });
  });
}

/** When the source was not sent: the change's note (its digest) in the window instead of lines, in the largest size that holds it whole. */
export function noteLayer(code: CodePlan, colours: CodeColours, theme: Theme, u: number, pad: number): Canvas {
  const { viewport } = code;
  const note = code.note;
  return layer(viewport.width, Math.max(pad + 1, viewport.height), (ctx) => {
    if (!note) return;
    ctx.font = font(note.size, theme.sans, 400);
    ctx.fillStyle = legibleOn(colours.background, code.highlighted.foreground, TEXT_CONTRAST);
    ctx.textBaseline = 'top';
    note.lines.forEach((line, i) => ctx.fillText(line, Math.round(40 * u), pad + i * note.lineHeight));
  });
}
