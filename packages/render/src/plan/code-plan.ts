import { highlight, type Highlighted } from '../code/highlight.ts';
import { wrapLines, type CodeRow } from '../code/wrap.ts';
import type { CodeExcerpt } from '../composition/schema.ts';
import type { Layout, Rect } from '../draw/layout.ts';
import type { Theme } from '../draw/theme.ts';
import { measure } from '../draw/text.ts';

/** The editor of a code scene: geometry, colours and the scroll to the changed lines. */
export interface CodePlan {
  excerpt: CodeExcerpt;
  /** The theme's colours; the lines' own are in `rows`. */
  highlighted: Omit<Highlighted, 'lines'>;
  /** The editor's rows, long lines wrapped: those ever on screen, from where the scroll starts. */
  rows: CodeRow[];
  /** The row (in `rows`) of the excerpt's focus line. */
  focusRow: number;
  window: Rect;
  titleBarHeight: number;
  /** The scrolling code area inside the window. */
  viewport: Rect;
  fontSize: number;
  lineHeight: number;
  charWidth: number;
  gutterWidth: number;
  visibleLines: number;
  /** Pixels scrolled at the end of the move, to bring the first change into view. */
  scrollTo: number;
  /** Local times of the scroll. */
  scrollStart: number;
  scrollEnd: number;
}

/** Columns the editor aims to show across its width. */
const COLUMNS = 84;
/** Rows the editor scrolls through at most, to the changed lines. */
const LEAD_ROWS = 40;

export async function planCode(excerpt: CodeExcerpt, panel: Rect, layout: Layout, theme: Theme, durationMs: number): Promise<CodePlan> {
  const u = layout.unit;
  const titleBarHeight = Math.round(56 * u);
  const padX = Math.round(20 * u);
  const viewport = { x: panel.x, y: panel.y + titleBarHeight, width: panel.width, height: panel.height - titleBarHeight };
  const lastNumber = Math.max(1, ...excerpt.lines.map((line) => line.number ?? 0));
  const gutterChars = String(lastNumber).length + 4; // number, a space, the +/- marker, a space
  const advance = measure('0', 100, theme.mono, 400) / 100;
  // Never below 24 px at 1080: narrow frames show fewer columns and wrap long lines.
  const fontSize = Math.round(Math.min(30 * u, Math.max(24 * u, (viewport.width - 2 * padX) / ((COLUMNS + gutterChars) * advance))));
  const lineHeight = Math.round(fontSize * 1.55);
  const charWidth = advance * fontSize;
  const gutterWidth = padX + gutterChars * charWidth;
  const visibleLines = Math.max(1, Math.floor((viewport.height - 2 * padX) / lineHeight));
  // Only the lines that can come on screen (wrapping only pushes lines further down): a grammar
  // reads top down, so a prefix highlights the same.
  const topLine = Math.max(0, Math.min(excerpt.focusLine - Math.floor(visibleLines * 0.3), excerpt.lines.length - visibleLines));
  const lines = excerpt.lines.slice(0, topLine + visibleLines + 1);
  const { lines: tokens, ...highlighted } = await highlight(lines.map((line) => line.text), excerpt.language, theme.dark);
  const rows = wrapLines(lines, tokens, Math.max(8, Math.floor((viewport.width - gutterWidth - padX) / charWidth)));
  const focusRow = Math.max(0, rows.findIndex((row) => row.line === excerpt.focusLine));
  const topRow = Math.max(0, Math.min(focusRow - Math.floor(visibleLines * 0.3), rows.length - visibleLines));
  // The scroll starts at most LEAD_ROWS above where it lands: wrapped lines would otherwise make
  // it (and the layer drawn for it) several times longer.
  const firstRow = Math.max(0, topRow - LEAD_ROWS);
  return {
    excerpt,
    highlighted,
    rows: rows.slice(firstRow, topRow + visibleLines + 1),
    focusRow: focusRow - firstRow,
    window: panel,
    titleBarHeight,
    viewport,
    fontSize,
    lineHeight,
    charWidth,
    gutterWidth,
    visibleLines,
    scrollTo: (topRow - firstRow) * lineHeight,
    scrollStart: durationMs * 0.14,
    scrollEnd: durationMs * 0.55,
  };
}
