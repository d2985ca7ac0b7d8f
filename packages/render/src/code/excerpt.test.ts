import { CodeFile } from '@vp/contracts';
import { describe, expect, it } from 'vitest';
import { EXCERPT_LINES, excerptOf } from './excerpt.ts';
import { languageOf } from './language.ts';

const file = (input: Partial<CodeFile>) => CodeFile.parse({ path: 'src/app.ts', source: '', ...input });
const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n');

describe('excerptOf', () => {
  it('merges the patch into the full source: removed lines put back, added lines marked', () => {
    const source = 'a\nB2\nc\nd\n';
    const patch = '@@ -1,4 +1,4 @@\n a\n-b\n+B2\n c\n';
    expect(excerptOf(file({ source, patch })).lines).toEqual([
      { number: 1, text: 'a', change: 'context' },
      { number: 2, text: 'b', change: 'removed' },
      { number: 2, text: 'B2', change: 'added' },
      { number: 3, text: 'c', change: 'context' },
      { number: 4, text: 'd', change: 'context' },
    ]);
  });

  it('scrolls a long file to its first change, keeping lines above it to scroll through', () => {
    const source = numbered(500).replace('line 300', 'line 300 changed');
    const patch = '@@ -299,3 +299,3 @@\n line 299\n-line 300\n+line 300 changed\n line 301\n';
    const excerpt = excerptOf(file({ source, patch }));
    expect(excerpt.lines).toHaveLength(EXCERPT_LINES);
    expect(excerpt.lines[excerpt.focusLine]).toEqual({ number: 300, text: 'line 300', change: 'removed' });
    expect(excerpt.focusLine).toBe(40);
    expect(excerpt.lines[0]?.number).toBe(260);
  });

  it('shows only the hunks when the source was not sent', () => {
    const patch = '@@ -10,2 +10,3 @@\n keep\n+new\n keep too\n@@ -40,2 +41,1 @@\n-gone\n stays\n';
    const excerpt = excerptOf(file({ patch, sourceOmitted: true }));
    expect(excerpt.lines.map((l) => [l.number, l.change, l.text])).toEqual([
      [10, 'context', 'keep'], [11, 'added', 'new'], [12, 'context', 'keep too'],
      [null, 'context', '⋯'],
      [40, 'removed', 'gone'], [41, 'context', 'stays'],
    ]);
  });

  it('shows a removed file sent with its old source once, every line removed', () => {
    const removed = (status: CodeFile['status']) => excerptOf(file({ source: 'a\nb\nc\n', patch: '@@ -1,3 +0,0 @@\n-a\n-b\n-c\n', status })).lines;
    const expected = [{ number: 1, text: 'a', change: 'removed' }, { number: 2, text: 'b', change: 'removed' }, { number: 3, text: 'c', change: 'removed' }];
    expect(removed('removed')).toEqual(expected);
    // The patch says so even when the status does not.
    expect(removed(null)).toEqual(expected);
  });

  it('numbers a hunk from its own start when the source is shorter than the patch', () => {
    const patch = '@@ -20,2 +20,3 @@\n keep\n+new\n keep too\n';
    expect(excerptOf(file({ source: numbered(3), patch })).lines.map((l) => [l.number, l.change, l.text])).toEqual([
      [1, 'context', 'line 1'], [2, 'context', 'line 2'], [3, 'context', 'line 3'],
      [null, 'context', '⋯'],
      [20, 'context', 'keep'], [21, 'added', 'new'], [22, 'context', 'keep too'],
    ]);
  });

  it('marks every line from the status when there is no patch', () => {
    expect(excerptOf(file({ source: 'x\ny', status: 'added' })).lines.every((l) => l.change === 'added')).toBe(true);
    expect(excerptOf(file({ source: 'x\ny', status: 'removed' })).lines.every((l) => l.change === 'removed')).toBe(true);
    expect(excerptOf(file({ source: 'x\ny', status: 'modified' })).lines.every((l) => l.change === 'context')).toBe(true);
  });

  it('falls back to the digest when there is nothing to show', () => {
    const excerpt = excerptOf(file({ sourceOmitted: true, digest: 'Adds a timeout option', additions: 3 }));
    expect(excerpt).toMatchObject({ lines: [], note: 'Adds a timeout option' });
  });

  it('expands tabs and shortens very long lines', () => {
    const [line] = excerptOf(file({ source: `\tx${'y'.repeat(400)}` })).lines;
    expect(line?.text.startsWith('  x')).toBe(true);
    expect(line?.text.length).toBe(240);
  });
});

describe('languageOf', () => {
  it.each([
    ['src/app.ts', 'typescript'], ['App.tsx', 'tsx'], ['main.py', 'python'], ['lib.rs', 'rust'], ['Dockerfile', 'docker'],
    ['config.yml', 'yaml'], ['x.h', 'c'], ['notes', 'text'], ['weird.unknownext', 'text'],
    // Names of Object's own properties are file names like any other (they once failed the pitch).
    ['src/__proto__', 'text'], ['constructor', 'text'], ['a.constructor', 'text'], ['x.__proto__', 'text'], ['toString', 'text'],
  ])('%s is %s', (path, language) => {
    expect(languageOf(path)).toBe(language);
  });
});
