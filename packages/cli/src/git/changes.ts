import { decode, git, gitBytes } from './run.ts';

export type Status = 'added' | 'modified' | 'removed' | 'renamed';
export type Change = { path: string; oldPath: string | null; status: Status; additions: number; deletions: number; binary: boolean };

const STATUS: Record<string, Status> = { A: 'added', M: 'modified', D: 'removed', R: 'renamed', C: 'added', T: 'modified' };

/** The files changed between two trees, renames found, with their line counts (binary files have none). */
export async function changedFiles(cwd: string, base: string, head: string): Promise<Change[]> {
  const [names, numbers] = await Promise.all([
    git(cwd, ['diff', '--no-ext-diff', '--name-status', '-z', '-M', base, head]),
    git(cwd, ['diff', '--no-ext-diff', '--numstat', '-z', '-M', base, head]),
  ]);
  const counts = numstat(numbers);
  const changes: Change[] = [];
  const fields = names.split('\0');
  for (let i = 0; i < fields.length - 1;) {
    const code = fields[i++]!.charAt(0);
    const twoPaths = code === 'R' || code === 'C';
    const oldPath = twoPaths ? fields[i++]! : null;
    const path = fields[i++]!;
    const count = counts.get(path) ?? { additions: 0, deletions: 0, binary: false };
    changes.push({ path, oldPath: code === 'R' ? oldPath : null, status: STATUS[code] ?? 'modified', ...count });
  }
  return changes;
}

/** `--numstat -z`: "add<TAB>del<TAB>path<NUL>", or for a rename "add<TAB>del<TAB><NUL>old<NUL>new<NUL>"; "-" for binary. */
function numstat(out: string) {
  const counts = new Map<string, { additions: number; deletions: number; binary: boolean }>();
  const fields = out.split('\0');
  for (let i = 0; i < fields.length - 1;) {
    const [added = '', deleted = '', path = ''] = fields[i++]!.split('\t');
    const name = path || (i++, fields[i++]!);
    const binary = added === '-';
    counts.set(name, { additions: binary ? 0 : Number(added), deletions: binary ? 0 : Number(deleted), binary });
  }
  return counts;
}

/** One file's patch, the rename included. */
export async function patchOf(cwd: string, base: string, head: string, change: Change): Promise<string> {
  const paths = change.oldPath ? [change.oldPath, change.path] : [change.path];
  return git(cwd, ['diff', '--no-ext-diff', '--no-color', '-M', base, head, '--', ...paths]);
}

/** The file as it is in `head`: bytes, since it may be binary. */
export function sourceOf(cwd: string, head: string, path: string): Promise<Buffer> {
  return gitBytes(cwd, ['show', `${head}:${path}`]);
}

export const looksBinary = (bytes: Buffer) => bytes.subarray(0, 8000).includes(0);
export { decode };
