import { typedLineOf } from '../code/excerpt.ts';
import { highlight, type Highlighted } from '../code/highlight.ts';
import { wrapLines, type CodeRow } from '../code/wrap.ts';
import type { CodeExcerpt } from '../composition/schema.ts';
import type { Layout, Rect } from '../draw/layout.ts';
import type { Theme } from '../draw/theme.ts';
import { fitInBox, scaleSteps, type BoxedText } from '../layout/type-scale.ts';
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
  /** Space around the lines inside the code area. */
  padding: number;
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
  /** The changed line that types itself in once the scroll lands: its rows, and when. */
  typed: TypedLine | null;
  /** When the typing ends (the scroll's end when nothing is typed): the changed rows then light up in turn. */
  typedEnd: number;
  /** The rows on screen that light up one after another until the scene leaves: the changed ones, else all (a note's lines when it shows one). */
  sweepRows: number[];
  /** The excerpt's note, set in the window when there are no lines to show. */
  note: BoxedText | null;
}

export interface TypedLine {
  rows: number[];
  start: number;
  end: number;
}

/** Typing pace, and the longest a line takes to type (a long line types faster). */
const TYPING_MS_PER_CHARACTER = 38;
const MAX_TYPING_MS = 1300;

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
  // The typed line's rows must be on screen too: when it wraps far below the focus, the view goes down to it.
  const typedIndex = typedLineOf(excerpt);
  const typedRows = rows.flatMap((row, i) => (row.line === typedIndex ? [i] : []));
  const lowest = Math.max(focusRow - Math.floor(visibleLines * 0.3), (typedRows.at(-1) ?? 0) - visibleLines + 1);
  const topRow = Math.max(0, Math.min(lowest, rows.length - visibleLines));
  // The scroll starts at most LEAD_ROWS above where it lands: wrapped lines would otherwise make
  // it (and the layer drawn for it) several times longer.
  const firstRow = Math.max(0, topRow - LEAD_ROWS);
  const shown = rows.slice(firstRow, topRow + visibleLines + 1);
  const inView = (row: number) => row >= topRow - firstRow && row < topRow - firstRow + visibleLines;
  const scrollEnd = durationMs * 0.55;
  const typed = typedLine(shown, typedRows.map((row) => row - firstRow).filter(inView), scrollEnd, durationMs);
  const changedInView = shown.flatMap((row, i) => (row.change !== 'context' && inView(i) ? [i] : []));
  const note = excerpt.note && !excerpt.lines.length ? noteText(excerpt.note, viewport, padX, u, theme.sans) : null;
  return {
    excerpt,
    highlighted,
    rows: shown,
    focusRow: focusRow - firstRow,
    window: panel,
    titleBarHeight,
    padding: padX,
    viewport,
    fontSize,
    lineHeight,
    charWidth,
    gutterWidth,
    visibleLines,
    scrollTo: (topRow - firstRow) * lineHeight,
    scrollStart: durationMs * 0.14,
    scrollEnd,
    typed,
    typedEnd: typed?.end ?? scrollEnd,
    sweepRows: changedInView.length ? changedInView : shown.flatMap((_, i) => (inView(i) ? [i] : [])),
    note,
  };
}

/**
 * The note at the largest size that shows it whole in the window; a note too long even at the
 * smallest keeps its first sentences, as many as fit.
 */
function noteText(note: string, viewport: Rect, pad: number, u: number, family: string): BoxedText {
  const sizes = scaleSteps(36, 22, u);
  const boxAt = (size: number) => ({
    family, weight: 400 as const, leading: 1.4, sizes: [size],
    maxWidth: viewport.width - Math.round(80 * u), maxLines: Math.max(1, Math.floor((viewport.height - 2 * pad) / Math.round(size * 1.4))),
  });
  const sentences = note.split(/(?<=[.!?])\s+/u);
  for (let kept = sentences.length; kept > 0; kept--) {
    const text = sentences.slice(0, kept).join(' ');
    for (const size of sizes) {
      const set = fitInBox(text, boxAt(size));
      if (set.fits) return set;
    }
  }
  return fitInBox(note, boxAt(sizes.at(-1)!));
}

/** The typed line's rows: it types itself in after the scroll, quicker the longer it is, within a quarter of the scene. */
function typedLine(rows: CodeRow[], own: number[], start: number, durationMs: number): TypedLine | null {
  if (!own.length) return null;
  const characters = own.reduce((sum, i) => sum + textOf(rows[i]!).length, 0);
  const typingMs = Math.min(MAX_TYPING_MS, durationMs * 0.25, characters * TYPING_MS_PER_CHARACTER);
  return { rows: own, start, end: start + typingMs };
}

const textOf = (row: CodeRow) => row.tokens.map((token) => token.text).join('');

/** The editor's height when all its rows are on screen at once (Infinity when they are not: it scrolls). */
export function editorHeightFor(code: CodePlan): number {
  if (!code.rows.length || code.scrollTo > 0 || code.rows.length > code.visibleLines) return Infinity;
  return code.titleBarHeight + code.rows.length * code.lineHeight + 2 * code.padding;
}
