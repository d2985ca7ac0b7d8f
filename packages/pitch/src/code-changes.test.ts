import { describe, expect, it } from 'vitest';
import { isWhitespaceOnly, keyLine, noiseOf, rankChanges } from './code-changes.ts';
import { brief, codeFile, whitespacePatch } from './testing/briefs.ts';

const files = (...inputs: ReturnType<typeof codeFile>[]) => brief({ code: inputs }).code;

describe('code changes', () => {
  it.each([
    ['pnpm-lock.yaml', 'lockfile'], ['package-lock.json', 'lockfile'], ['Cargo.lock', 'lockfile'], ['go.sum', 'lockfile'],
    ['dist/index.js', 'generated'], ['web/app.min.js', 'generated'], ['src/app.js.map', 'generated'],
    ['src/__snapshots__/a.test.ts.snap', 'generated'], ['vendor/x/y.go', 'generated'],
    ['src/billing/export.ts', null], ['docs/distribution.md', null],
  ])('%s is %s', (path, noise) => {
    expect(noiseOf(files(codeFile(path))[0]!)).toBe(noise);
  });

  it('tells whitespace-only diffs from real ones', () => {
    expect(isWhitespaceOnly(whitespacePatch())).toBe(true);
    expect(isWhitespaceOnly('@@ -1,2 +1,3 @@\n a\n+\n+   ')).toBe(true);
    expect(isWhitespaceOnly('@@ -1 +1 @@\n-return a;\n+return a + b;')).toBe(false);
    expect(isWhitespaceOnly('--- a/x.ts\n+++ b/x.ts\n@@ -1 +1 @@\n-a\n+ a')).toBe(true);
    expect(isWhitespaceOnly('')).toBe(false);
  });

  it('ranks meaningful changes by score, then by size, then by path', () => {
    const ranked = rankChanges(files(
      codeFile('b.ts', { score: 0.5, additions: 1, deletions: 0 }),
      codeFile('a.ts', { score: 0.5, additions: 1, deletions: 0 }),
      codeFile('big.ts', { score: 0.5, additions: 50, deletions: 50 }),
      codeFile('top.ts', { score: 0.9, additions: 1, deletions: 0 }),
      codeFile('yarn.lock', { score: 1 }),
    ));
    expect(ranked.map((f) => f.path)).toEqual(['top.ts', 'big.ts', 'a.ts', 'b.ts']);
  });

  it('picks a declaration as the line that stands for a change', () => {
    const [file] = files(codeFile('x.ts', { patch: '@@ -0,0 +1,4 @@\n+import { a } from "a";\n+// helper\n+export function exportInvoices(rows: Row[]) {\n+  return rows;' }));
    expect(keyLine(file!)).toBe('export function exportInvoices(rows: Row[]) {');
  });
});
