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

  it('never ends a row inside an operator when a space is near', () => {
    const text = 'if (this.value === event.value && handlers.every((handler) => handler.ready)) run();';
    const rows = wrapLines([{ number: 3, text, change: 'added' }], [[token(text)]], 44);
    expect(texts(rows)).toEqual(['if (this.value === event.value && ', 'handlers.every((handler) => handler.ready)) ', 'run();']);
    const equality = 'return this.value === event.value;';
    expect(texts(wrapLines([{ number: 4, text: equality, change: 'added' }], [[token(equality)]], 20))).toEqual(['return this.value ', '=== event.value;']);
  });

  it('counts wide characters as two columns and never cuts one in half', () => {
    const cjk = '// 配置超时时间以便在网络缓慢时请求不会永远等待下去';
    const rows = wrapLines([{ number: 1, text: cjk, change: 'context' }], [[token(cjk)]], 20);
    for (const row of texts(rows)) expect([...row].reduce((sum, char) => sum + (char.charCodeAt(0) > 0x2e80 ? 2 : 1), 0)).toBeLessThanOrEqual(20);
    expect(texts(rows).join('')).toBe(cjk);
    const emoji = '🚀'.repeat(12);
    const rocketRows = texts(wrapLines([{ number: 1, text: emoji, change: 'added' }], [[token(emoji)]], 16));
    expect(rocketRows).toEqual(['🚀'.repeat(8), '🚀'.repeat(4)]);
  });
});
