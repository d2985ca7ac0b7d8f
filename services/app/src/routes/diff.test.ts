import { describe, expect, it } from 'vitest';
import { codeItemsFromDiff, PATCH_MAX_CHARS } from './diff.ts';

const GIT_DIFF = `diff --git a/src/export.ts b/src/export.ts
index 1111111..2222222 100644
--- a/src/export.ts
+++ b/src/export.ts
@@ -1,3 +1,4 @@
 export function run() {
-  return slow();
+  return fast();
+  // twice as fast
 }
diff --git a/docs/new.md b/docs/new.md
new file mode 100644
--- /dev/null
+++ b/docs/new.md
@@ -0,0 +1,2 @@
+# New
+Hello
diff --git a/old.txt b/old.txt
deleted file mode 100644
--- a/old.txt
+++ /dev/null
@@ -1 +0,0 @@
-bye
diff --git a/a.ts b/b.ts
similarity index 100%
rename from a.ts
rename to b.ts
`;

describe('a .patch or .diff file, split into code items', () => {
  it('gives each file its path, status, lines added and removed, and its hunks', () => {
    const items = codeItemsFromDiff(GIT_DIFF);
    expect(items.map((i) => [i.path, i.status, i.additions, i.deletions])).toEqual([
      ['src/export.ts', 'modified', 2, 1], ['docs/new.md', 'added', 2, 0], ['old.txt', 'removed', 0, 1], ['b.ts', 'renamed', 0, 0],
    ]);
    expect(items[0]!.patch).toBe('@@ -1,3 +1,4 @@\n export function run() {\n-  return slow();\n+  return fast();\n+  // twice as fast\n }');
    expect(items[1]!.source).toBe('# New\nHello');
    expect(items[0]!.source).toBe('');
    expect(items[3]!.patch).toBeNull();
  });

  it('reads a plain unified diff without git headers', () => {
    const items = codeItemsFromDiff('--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a\n+b\n');
    expect(items).toEqual([{ path: 'x.py', source: '', status: 'modified', additions: 1, deletions: 1, patch: '@@ -1 +1 @@\n-a\n+b\n' }]);
  });

  it('cuts a patch longer than a code item holds at a line, and says so', () => {
    const body = Array.from({ length: 3000 }, (_, i) => `+line ${i} of a long file`).join('\n');
    const [item] = codeItemsFromDiff(`--- /dev/null\n+++ b/long.txt\n@@ -0,0 +1,3000 @@\n${body}\n`);
    expect(item!.patch!.length).toBeLessThanOrEqual(PATCH_MAX_CHARS);
    expect(item!.patch).toMatch(/the rest of this patch was cut\)\n$/);
    expect(item!.additions).toBe(3000);
  });

  it('finds nothing in text that is not a diff', () => {
    expect(codeItemsFromDiff('just some words\n')).toEqual([]);
  });
});
