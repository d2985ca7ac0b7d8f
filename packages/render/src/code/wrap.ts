import type { CodeLine } from '../composition/schema.ts';
import { characters } from '../style/characters.ts';
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

/** Characters a monospaced font draws two columns wide: CJK, Hangul, full-width forms, emoji. */
const WIDE = /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{20000}-\u{3fffd}]|\p{Extended_Pictographic}/u;
/** Where a row may end when no space is near: after a separator, never inside `=>`, `===` or `&&`. */
const SEPARATOR = /[,;({[]/;

/**
 * Lines wider than `columns` wrap onto further rows, as an editor with word wrap shows them: a
 * narrow frame (9:16 has room for ~57 columns) would otherwise cut a changed line off mid-change.
 * A row ends after the last space in its second half, else after a separator there, else at the
 * edge; never inside a character (an emoji, a letter with its accent). `tokens` holds each line's
 * highlighted text.
 */
export function wrapLines(lines: CodeLine[], tokens: Token[][], columns: number): CodeRow[] {
  return lines.flatMap((line, index) => {
    const lineTokens = tokens[index] ?? [];
    const chars = characters(lineTokens.map((token) => token.text).join(''));
    const widths = chars.map((char) => (WIDE.test(char) ? 2 : 1));
    const first = { line: index, number: line.number, change: line.change, indent: 0 };
    if (widths.reduce((sum, width) => sum + width, 0) <= columns) return [{ ...first, tokens: lineTokens }];
    // String offsets of the characters, to cut the tokens at.
    const offsets = [0];
    for (const char of chars) offsets.push(offsets.at(-1)! + char.length);
    const indent = Math.min(Math.max(0, chars.findIndex((char) => char !== ' ')), Math.floor(columns / 3));
    const rows: CodeRow[] = [];
    let start = 0;
    while (start < chars.length) {
      const room = rows.length ? columns - indent : columns;
      let end = start;
      for (let used = 0; end < chars.length && used + widths[end]! <= room; end++) used += widths[end]!;
      end = end === chars.length ? end : breakAt(chars, start, Math.max(end, start + 1));
      rows.push({ ...first, number: rows.length ? null : line.number, indent: rows.length ? indent : 0, tokens: slice(lineTokens, offsets[start]!, offsets[end]!) });
      start = end;
      // A wrapped row starts at code, not at the spaces the break fell on.
      while (start < chars.length && chars[start] === ' ') start++;
    }
    return rows;
  });
}

function breakAt(chars: string[], start: number, edge: number): number {
  const half = start + (edge - start) / 2;
  for (const fits of [(char: string) => /\s/.test(char), (char: string) => SEPARATOR.test(char)]) {
    for (let end = edge; end > half; end--) if (fits(chars[end - 1]!)) return end;
  }
  return edge;
}

/** The tokens' text between two string offsets of their line, colours kept. */
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
