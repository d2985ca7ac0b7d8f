import { highlight, type Highlighted } from '../code/highlight.ts';
import type { CodeExcerpt } from '../composition/schema.ts';
import type { Layout, Rect } from '../draw/layout.ts';
import type { Theme } from '../draw/theme.ts';
import { measure } from '../draw/text.ts';

/** The editor of a code scene: geometry, colours and the scroll to the changed lines. */
export interface CodePlan {
  excerpt: CodeExcerpt;
  highlighted: Highlighted;
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
  /** Lines drawn into the layer: those ever on screen. */
  renderedLines: number;
  /** Local times of the scroll. */
  scrollStart: number;
  scrollEnd: number;
}

/** Columns the editor aims to show across its width. */
const COLUMNS = 84;

export async function planCode(excerpt: CodeExcerpt, panel: Rect, layout: Layout, theme: Theme, durationMs: number): Promise<CodePlan> {
  const u = layout.unit;
  const titleBarHeight = Math.round(56 * u);
  const padX = Math.round(20 * u);
  const viewport = { x: panel.x, y: panel.y + titleBarHeight, width: panel.width, height: panel.height - titleBarHeight };
  const lastNumber = Math.max(1, ...excerpt.lines.map((line) => line.number ?? 0));
  const gutterChars = String(lastNumber).length + 4; // number, a space, the +/- marker, a space
  const advance = measure('0', 100, theme.mono, 400) / 100;
  // Never below 24 px at 1080: narrow frames show fewer columns and clip long lines, as an editor would.
  const fontSize = Math.round(Math.min(30 * u, Math.max(24 * u, (viewport.width - 2 * padX) / ((COLUMNS + gutterChars) * advance))));
  const lineHeight = Math.round(fontSize * 1.55);
  const charWidth = advance * fontSize;
  const visibleLines = Math.max(1, Math.floor((viewport.height - 2 * padX) / lineHeight));
  const topLine = Math.max(0, Math.min(excerpt.focusLine - Math.floor(visibleLines * 0.3), excerpt.lines.length - visibleLines));
  const renderedLines = Math.min(excerpt.lines.length, topLine + visibleLines + 1);
  return {
    excerpt,
    // Only the lines ever on screen: a grammar reads top down, so a prefix highlights the same.
    highlighted: await highlight(excerpt.lines.slice(0, renderedLines).map((line) => line.text), excerpt.language, theme.dark),
    window: panel,
    titleBarHeight,
    viewport,
    fontSize,
    lineHeight,
    charWidth,
    gutterWidth: padX + gutterChars * charWidth,
    visibleLines,
    scrollTo: topLine * lineHeight,
    renderedLines,
    scrollStart: durationMs * 0.14,
    scrollEnd: durationMs * 0.55,
  };
}
