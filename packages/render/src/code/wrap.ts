import type { CodeLine } from '../composition/schema.ts';
import type { Token } from './highlight.ts';

/** One row of the editor: a whole line, or a piece of a line too long for the editor's width. */
export interface CodeRow {
  /** Index of the line in the excerpt. */
  line: number;
  /** The line's number on its first row; null on the rows it wraps onto, and on gap lines. */
  number: number | null;
  change: CodeLine['change'];
  /** Columns of indentation before the tokens: a wrapped piece lines up with its line's code. */
  indent: number;
  tokens: Token[];
}

/**
 * Lines longer than `columns` wrap onto further rows, as an editor with word wrap shows them: a
 * narrow frame (9:16 has room for ~57 columns) would otherwise cut a changed line off mid-change.
 * A row breaks after the last space or punctuation in its second half, else at the edge.
 * `tokens` holds each line's highlighted text.
 */
export function wrapLines(lines: CodeLine[], tokens: Token[][], columns: number): CodeRow[] {
  return lines.flatMap((line, index) => {
    const lineTokens = tokens[index] ?? [];
    const text = lineTokens.map((token) => token.text).join('');
    const first = { line: index, number: line.number, change: line.change, indent: 0 };
    if (text.length <= columns) return [{ ...first, tokens: lineTokens }];
    const indent = Math.min(text.length - text.trimStart().length, Math.floor(columns / 3));
    const rows: CodeRow[] = [];
    let start = 0;
    while (start < text.length) {
      const room = rows.length ? columns - indent : columns;
      const end = start + room >= text.length ? text.length : breakAt(text, start, room);
      rows.push({ ...first, number: rows.length ? null : line.number, indent: rows.length ? indent : 0, tokens: slice(lineTokens, start, end) });
      start = end;
      // A wrapped row starts at code, not at the spaces the break fell on.
      while (start < text.length && text[start] === ' ') start++;
    }
    return rows;
  });
}

function breakAt(text: string, start: number, room: number): number {
  for (let end = start + room; end > start + room / 2; end--) {
    if (/[\s,;({[=&|+]/.test(text[end - 1] ?? '')) return end;
  }
  return start + room;
}

/** The tokens' text between two character offsets of their line, colours kept. */
function slice(tokens: Token[], from: number, to: number): Token[] {
  const out: Token[] = [];
  let at = 0;
  for (const token of tokens) {
    const end = at + token.text.length;
    if (end > from && at < to) out.push({ ...token, text: token.text.slice(Math.max(0, from - at), to - at) });
    at = end;
  }
  return out;
}
