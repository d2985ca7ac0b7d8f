import { describe, expect, it } from 'vitest';
import type { CodeLine } from '../composition/schema.ts';
import type { Token } from './highlight.ts';
import { wrapLines } from './wrap.ts';

const token = (text: string, color = '#fff'): Token => ({ text, color, italic: false, bold: false });
const texts = (rows: ReturnType<typeof wrapLines>) => rows.map((row) => row.tokens.map((t) => t.text).join(''));

describe('wrapping code lines to the editor width', () => {
  it('keeps a line that fits on one row as it is', () => {
    const lines: CodeLine[] = [{ number: 7, text: 'const a = 1;', change: 'added' }];
    const tokens = [[token('const', '#f97583'), token(' a = '), token('1', '#79b8ff'), token(';')]];
    expect(wrapLines(lines, tokens, 20)).toEqual([{ line: 0, number: 7, change: 'added', indent: 0, tokens: tokens[0] }]);
  });

  it('wraps a long line after a space or punctuation, numbering only its first row, indented like its code', () => {
    const text = '    const timeoutMs = options.timeoutMs ?? defaults.timeoutMs ?? 30_000;';
    const lines: CodeLine[] = [{ number: 61, text, change: 'added' }, { number: 62, text: '}', change: 'context' }];
    const rows = wrapLines(lines, [[token(text)], [token('}')]], 30);
    expect(texts(rows)).toEqual(['    const timeoutMs = ', 'options.timeoutMs ?? ', 'defaults.timeoutMs ?? ', '30_000;', '}']);
    expect(rows.map((row) => [row.line, row.number, row.change, row.indent])).toEqual([
      [0, 61, 'added', 0], [0, null, 'added', 4], [0, null, 'added', 4], [0, null, 'added', 4], [1, 62, 'context', 0],
    ]);
    for (const row of rows) expect(row.indent + texts([row])[0]!.length).toBeLessThanOrEqual(30);
  });

  it('cuts a line with nowhere to break at the edge, and keeps each piece its colour', () => {
    const lines: CodeLine[] = [{ number: 1, text: 'x'.repeat(12) + 'y'.repeat(12), change: 'removed' }];
    const rows = wrapLines(lines, [[token('x'.repeat(12), '#aaa'), token('y'.repeat(12), '#bbb')]], 10);
    expect(texts(rows)).toEqual(['xxxxxxxxxx', 'xxyyyyyyyy', 'yyyy']);
    expect(rows[1]!.tokens).toEqual([token('xx', '#aaa'), token('yyyyyyyy', '#bbb')]);
  });
});
