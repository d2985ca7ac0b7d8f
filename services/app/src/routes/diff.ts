import type { CodeFile } from '@vp/contracts';

type CodeItem = Pick<CodeFile, 'path' | 'source' | 'status' | 'additions' | 'deletions' | 'patch'>;

/** A code item's patch is bounded (CodeFile.patch): a longer one is cut at a line, and says so. */
export const PATCH_MAX_CHARS = 20_000;
const CUT = '\n… (the rest of this patch was cut)\n';

function bounded(patch: string): string {
  if (patch.length <= PATCH_MAX_CHARS) return patch;
  const room = patch.slice(0, PATCH_MAX_CHARS - CUT.length);
  return room.slice(0, Math.max(0, room.lastIndexOf('\n'))) + CUT;
}

const unprefixed = (path: string) => path.replace(/^[ab]\//, '').trim();

/**
 * A `.patch` or `.diff` (git's or plain unified) split into one code item per file: its path,
 * status, lines added and removed, and its hunks as the patch. An added file's source is its
 * added lines; for the others the diff holds only the changed lines, so the source stays empty.
 */
export function codeItemsFromDiff(text: string): CodeItem[] {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const items: CodeItem[] = [];
  // (Cast: assignments in the closures below must not leave `current` narrowed to null.)
  let current = null as (CodeItem & { hunks: string[]; added: string[] }) | null;
  const finish = () => {
    if (!current) return;
    const { hunks, added, ...item } = current;
    items.push({ ...item, patch: hunks.length ? bounded(hunks.join('\n')) : null, source: item.status === 'added' ? added.join('\n') : '' });
    current = null;
  };
  const start = (path: string) => {
    finish();
    current = { path, source: '', status: 'modified', additions: 0, deletions: 0, patch: null, hunks: [], added: [] };
  };
  let inHunk = false;
  for (const line of lines) {
    const git = /^diff --git a\/(.+) b\/(.+)$/.exec(line);
    if (git) { start(git[2]!); inHunk = false; continue; }
    if (line.startsWith('--- ') && !inHunk) {
      const next = unprefixed(line.slice(4));
      if (!current) start(next);
      if (next === '/dev/null') current!.status = 'added';
      continue;
    }
    if (line.startsWith('+++ ') && !inHunk) {
      const path = unprefixed(line.slice(4));
      if (path === '/dev/null') current!.status = 'removed';
      else current!.path = path;
      continue;
    }
    if (!current) continue;
    if (line.startsWith('new file mode')) current.status = 'added';
    else if (line.startsWith('deleted file mode')) current.status = 'removed';
    else if (line.startsWith('rename from')) current.status = 'renamed';
    else if (line.startsWith('@@')) { inHunk = true; current.hunks.push(line); }
    else if (inHunk && /^[ +\-\\]/.test(line)) {
      current.hunks.push(line);
      if (line.startsWith('+')) { current.additions++; current.added.push(line.slice(1)); }
      else if (line.startsWith('-')) current.deletions++;
    } else if (inHunk && line === '') current.hunks.push(line);
    else inHunk = false;
  }
  finish();
  return items;
}
