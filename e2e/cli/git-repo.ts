import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A git repository with two real commits; the second adds, modifies, renames, removes, adds a
 * binary file and touches a lock file, which is what `vp produce` turns into a brief.
 */
export async function releaseRepository() {
  const dir = await mkdtemp(join(tmpdir(), 'vp-repo-'));
  const git = async (...args: string[]) => (await run('git', args, { cwd: dir })).stdout.trim();
  const write = (path: string, content: string | Buffer) => writeFile(join(dir, path), content);
  await git('init', '-q', '-b', 'main');
  await git('config', 'user.name', 'Ada Lovelace');
  await git('config', 'user.email', 'ada@example.test');
  await git('remote', 'add', 'origin', 'git@github.com:acme/widgets.git');
  await write('export.ts', 'export function exportCsv(rows: string[][]) {\n  return rows.map((row) => row.join(",")).join("\\n");\n}\n');
  await write('NOTES.md', '# Notes\n');
  await write('legacy.ts', 'export const legacy = true;\n');
  await write('pnpm-lock.yaml', 'lockfileVersion: 9.0\n');
  await git('add', '-A');
  await git('commit', '-q', '-m', 'Start the widgets app');
  const base = await git('rev-parse', 'HEAD');

  await write('export.ts', 'export function exportCsv(rows: string[][]) {\n  return rows.map((row) => row.map(quote).join(",")).join("\\n");\n}\n\nconst quote = (cell: string) => `"${cell.replaceAll(\'"\', \'""\')}"`;\n');
  await write('button.tsx', 'export function ExportButton() {\n  return <button>Export to CSV</button>;\n}\n');
  await git('mv', 'NOTES.md', 'CHANGELOG.md');
  await git('rm', '-q', 'legacy.ts');
  await write('icon.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0, 1, 2, 3, 0, 255]));
  await write('pnpm-lock.yaml', 'lockfileVersion: 9.0\npackages: {}\n');
  await git('add', '-A');
  await git('commit', '-q', '-m', 'Export to CSV from the toolbar', '-m', 'Cells are quoted, so commas in names survive.');
  const head = await git('rev-parse', 'HEAD');
  return { dir, base, head, close: () => rm(dir, { recursive: true, force: true }) };
}
