import type { CodeFile } from '@vp/contracts';
import { clip, oneLine } from './text.ts';

export type Noise = 'lockfile' | 'generated' | 'whitespace';

const LOCKFILE = /^(package-lock\.json|npm-shrinkwrap\.json|pnpm-lock\.ya?ml|yarn\.lock|bun\.lockb?|deno\.lock|go\.sum|packages\.lock\.json|gradle\.lockfile|[^/]*\.lock)$/i;
const GENERATED_FOLDER = /(^|\/)(dist|vendor|vendors|third[_-]party|node_modules|__snapshots__|__generated__|generated|\.next|coverage)\//i;
const GENERATED_FILE = /(\.min\.(js|mjs|cjs|css)|\.map|\.snap|\.(pb|generated|gen)\.\w+|_pb2\.py|\.designer\.cs)$/i;

/** Why a changed file would mean nothing to a viewer, or null when it is a real change. */
export function noiseOf(file: CodeFile): Noise | null {
  const path = file.path.replace(/\\/g, '/');
  const name = path.split('/').at(-1) ?? path;
  if (LOCKFILE.test(name)) return 'lockfile';
  if (GENERATED_FOLDER.test(path) || GENERATED_FILE.test(name)) return 'generated';
  if (file.patch && isWhitespaceOnly(file.patch)) return 'whitespace';
  return null;
}

/** True when a unified diff only moves whitespace around. */
export function isWhitespaceOnly(patch: string): boolean {
  const { added, removed } = changedLines(patch);
  if (added.length + removed.length === 0) return false;
  const squash = (lines: string[]) => lines.join('').replace(/\s+/g, '');
  return squash(added) === squash(removed);
}

export function changedLines(patch: string): { added: string[]; removed: string[] } {
  const added: string[] = [];
  const removed: string[] = [];
  let inHunk = false;
  for (const row of patch.split('\n')) {
    if (row.startsWith('@@')) inHunk = true;
    else if (!inHunk && /^(\+\+\+|---) |^diff |^index /.test(row)) continue;
    else if (row.startsWith('+')) added.push(row.slice(1));
    else if (row.startsWith('-')) removed.push(row.slice(1));
  }
  return { added, removed };
}

export const sizeOf = (file: CodeFile) => file.additions + file.deletions;

/** The changes worth showing, most important first: by score, then by size, then by path. */
export function rankChanges(code: CodeFile[]): CodeFile[] {
  return code
    .filter((file) => noiseOf(file) === null)
    .sort((a, b) => b.score - a.score || sizeOf(b) - sizeOf(a) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

const DECLARATION = /\b(export|function|class|interface|type|def|fn|func|struct|enum|const|public|module|trait|impl)\b/;
const TRIVIAL = /^(import |from |#include|using |package |\/\/|#|\/\*|\*|[{}()[\];,]*$)/;

/** The added line that best stands for a change, for a code card; declarations first. */
export function keyLine(file: CodeFile): string | null {
  const candidates = changedLines(file.patch ?? '').added
    .map((row) => oneLine(row))
    .filter((row) => row.length >= 8 && !TRIVIAL.test(row));
  const best = candidates.find((row) => DECLARATION.test(row)) ?? candidates[0];
  return best ? clip(best, 80) : null;
}

/** What a change does to the names a file declares, read from its patch. */
export interface ChangeFacts {
  added: string[];
  removed: string[];
  /** A declaration whose name changed: [before, after]. */
  renamed: [string, string][];
  /** Declared on both sides: reworked in place. */
  updated: string[];
  /** The file's own new path, when the patch says it was renamed. */
  movedTo: string | null;
}

/** A declaration at the start of a line; a variable only at the top of the file, not one inside a function or loop. */
const DECLARED = /^(?:\s*(?:export\s+(?:default\s+)?)?(?:(?:async|public|private|protected|static|pub(?:\([\w:]+\))?|abstract|final|open|data|sealed)\s+)*(?:function\*?|class|interface|type|enum|def|fn|func|struct|trait|module|record|protocol|object)|(?:export\s+)?(?:const|let|var))\s+([A-Za-z_$][\w$]*)/;

function declarations(lines: string[]): { name: string; kind: string }[] {
  return lines.flatMap((line) => {
    const match = DECLARED.exec(line);
    return match ? [{ name: match[1]!, kind: match[0].trim().split(/\s+/).at(-2)! }] : [];
  });
}

/**
 * The names a change adds, removes, renames or reworks (declarations on its + and - lines), and
 * where a renamed file went, so that each change is told by what it does.
 */
export function changeFacts(file: CodeFile): ChangeFacts {
  const patch = file.patch ?? '';
  const { added: plus, removed: minus } = changedLines(patch);
  const before = declarations(minus);
  const after = declarations(plus);
  const gone = before.filter((d) => !after.some((a) => a.name === d.name));
  const fresh = after.filter((d) => !before.some((b) => b.name === d.name));
  // One name gone and one of the same kind come in its place: a rename.
  const renamed: [string, string][] = gone.length === 1 && fresh.length === 1 && gone[0]!.kind === fresh[0]!.kind ? [[gone[0]!.name, fresh[0]!.name]] : [];
  const unique = (names: string[]) => [...new Set(names)];
  return {
    added: renamed.length ? [] : unique(fresh.map((d) => d.name)),
    removed: renamed.length ? [] : unique(gone.map((d) => d.name)),
    renamed,
    updated: unique(after.filter((d) => before.some((b) => b.name === d.name)).map((d) => d.name)),
    movedTo: /^rename to (.+)$/m.exec(patch)?.[1]?.trim() ?? null,
  };
}
