import { UsageError } from '../io.ts';
import { git, gitMaybe } from './run.ts';

export type Commit = { sha: string; subject: string; body: string; author: string };
/** A resolved range: `base` null means the start of history (the first commit's parent is the empty tree). */
export type Range = { spec: string; base: string | null; head: string; commits: Commit[] };

/**
 * Resolves `A..B`, `A...B` (from where they meet), a single revision (that commit alone) or
 * nothing (the last commit) to full commit ids, with the commits in between, oldest first.
 */
export async function resolveRange(cwd: string, spec: string | undefined): Promise<Range> {
  if (!(await gitMaybe(cwd, ['rev-parse', '--is-inside-work-tree']))) throw new UsageError(`${cwd} is not in a git repository`);
  const given = spec ?? 'HEAD';
  let base: string | null;
  let head: string;
  if (given.includes('...')) {
    const [from = '', to = ''] = given.split('...');
    head = await commitOf(cwd, to || 'HEAD');
    base = (await gitMaybe(cwd, ['merge-base', await commitOf(cwd, from || 'HEAD'), head])) ?? null;
  } else if (given.includes('..')) {
    const [from = '', to = ''] = given.split('..');
    [base, head] = [await commitOf(cwd, from || 'HEAD'), await commitOf(cwd, to || 'HEAD')];
  } else {
    head = await commitOf(cwd, given);
    base = await gitMaybe(cwd, ['rev-parse', '--verify', '--quiet', `${head}^1`]);
  }
  return { spec: given, base, head, commits: await commitsBetween(cwd, base, head) };
}

async function commitOf(cwd: string, rev: string): Promise<string> {
  const sha = await gitMaybe(cwd, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`]);
  if (!sha) throw new UsageError(`"${rev}" is not a commit in this repository`);
  return sha;
}

async function commitsBetween(cwd: string, base: string | null, head: string): Promise<Commit[]> {
  const out = await git(cwd, ['log', '--reverse', '--format=%H%x00%s%x00%b%x00%an%x1e', base ? `${base}..${head}` : head]);
  return out.split('\x1e').map((record) => record.replace(/^\n/, '')).filter(Boolean).map((record) => {
    const [sha = '', subject = '', body = '', author = ''] = record.split('\x00');
    return { sha, subject, body: body.trim(), author };
  });
}

/** The empty tree of this repository's hash: what the first commit is compared with. */
export async function emptyTree(cwd: string): Promise<string> {
  return (await git(cwd, ['hash-object', '-t', 'tree', '--stdin'])).trim();
}
