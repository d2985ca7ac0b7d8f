import type { CreateProductionBody } from '@vp/sdk';
import { changedFiles, decode, looksBinary, patchOf, sourceOf, type Change } from './changes.ts';
import { originOf } from './origin.ts';
import { emptyTree, resolveRange, type Range } from './range.ts';
import { git } from './run.ts';
import { leftOut, scoreOf } from './score.ts';

/** The spec's bounds of a brief. */
const MAX_CODE_FILES = 40;
const MAX_SOURCE = 200_000;
const MAX_PATCH = 20_000;
const MAX_CONTEXT = 60_000;
const MAX_INTENT = 2000;

type CodeFile = NonNullable<CreateProductionBody['brief']['code']>[number];
export type GitBrief = { body: CreateProductionBody; range: Range; leftOut: { path: string; why: string }[] };

/**
 * A brief from a git range: one code item per changed file (lock and generated files left out,
 * the 40 that matter most kept), the commit messages as context, the remote as origin, and an
 * externalId from the range's commit ids, so that running it again replays the same production.
 */
export async function briefFromGit(cwd: string, spec: string | undefined, extra: { intent?: string; context?: string } = {}): Promise<GitBrief> {
  const range = await resolveRange(cwd, spec);
  const base = range.base ?? (await emptyTree(cwd));
  const changes = await changedFiles(cwd, base, range.head);
  const generated = await generatedByAttributes(cwd, range.head, changes.map((change) => change.path));
  const excluded: GitBrief['leftOut'] = [];
  const files: CodeFile[] = [];
  for (const change of changes) {
    const item = await codeItem(cwd, base, range.head, change);
    const why = leftOut(change.path, item.sourceOmitted ? null : item.source, generated);
    if (why) excluded.push({ path: change.path, why });
    else files.push(item);
  }
  files.sort((a, b) => (b.score ?? 0) - (a.score ?? 0) || a.path.localeCompare(b.path));
  for (const dropped of files.splice(MAX_CODE_FILES)) excluded.push({ path: dropped.path, why: `past the ${MAX_CODE_FILES} files that matter most` });
  const body: CreateProductionBody = {
    brief: { intent: (extra.intent ?? intentOf(range)).slice(0, MAX_INTENT), context: contextOf(range, extra.context), code: files },
    externalId: `git:${range.base ?? 'root'}..${range.head}`,
    origin: await originOf(cwd, range),
  };
  return { body, range, leftOut: excluded };
}

async function codeItem(cwd: string, base: string, head: string, change: Change): Promise<CodeFile> {
  const common = { path: change.path.slice(0, 500), status: change.status, additions: change.additions, deletions: change.deletions, score: scoreOf(change) };
  if (change.binary) return { ...common, source: '', patch: null, sourceOmitted: true };
  const patch = trim(await patchOf(cwd, base, head, change), MAX_PATCH);
  if (change.status === 'removed') return { ...common, source: '', patch, sourceOmitted: true };
  const bytes = await sourceOf(cwd, head, change.path);
  const source = looksBinary(bytes) ? null : decode(bytes);
  // Too long for the brief, or not text after all: the patch still tells what changed.
  if (source === null || source.length > MAX_SOURCE) return { ...common, source: '', patch, sourceOmitted: true };
  return { ...common, source, patch };
}

/** Cut at the last whole line that fits, saying so. */
function trim(text: string, max: number): string {
  if (text.length <= max) return text;
  const note = '\n… (trimmed)';
  const cut = text.slice(0, max - note.length);
  return `${cut.slice(0, Math.max(cut.lastIndexOf('\n'), 0))}${note}`;
}

function intentOf(range: Range): string {
  const subjects = range.commits.map((commit) => commit.subject).filter(Boolean);
  if (subjects.length === 1) return subjects[0]!;
  if (!subjects.length) return `What changed in ${range.spec}`;
  return `${subjects.length} changes: ${subjects.join('; ')}`;
}

function contextOf(range: Range, extra: string | undefined): string | null {
  const commits = range.commits.map((commit) =>
    `- ${commit.subject} (${commit.sha.slice(0, 12)}, ${commit.author})${commit.body ? `\n${commit.body.replace(/^/gm, '  ')}` : ''}`);
  const parts = [extra?.trim(), commits.length ? `Commits:\n${commits.join('\n')}` : null].filter(Boolean);
  return parts.length ? trim(parts.join('\n\n'), MAX_CONTEXT) : null;
}

/** Paths marked `linguist-generated` in .gitattributes (GitHub hides them from diffs too). */
async function generatedByAttributes(cwd: string, _head: string, paths: string[]): Promise<Set<string>> {
  if (!paths.length) return new Set();
  const out = await git(cwd, ['check-attr', '-z', 'linguist-generated', '--', ...paths]).catch(() => '');
  const fields = out.split('\0');
  const generated = new Set<string>();
  for (let i = 0; i + 2 < fields.length; i += 3) if (fields[i + 2] === 'true' || fields[i + 2] === 'set') generated.add(fields[i]!);
  return generated;
}
