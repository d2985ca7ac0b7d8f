import { lstat, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * How long an entry of the render work folder must be untouched before it is swept. A try lasts at
 * most 30 minutes (the render activity's startToCloseTimeout; a hung one ends sooner, see
 * `stallWatchdog`) and its folder is touched when the try starts and when it writes its files, then
 * removed. Two hours, four times the longest try, so an entry that old was left by a worker killed
 * mid-render (SIGKILL, a lost machine), never one a live try on a worker sharing the folder still uses.
 */
export const ABANDONED_AFTER_MS = 2 * 60 * 60 * 1000;

/** Hourly: a killed worker's leftovers (hundreds of MB for a long video) do not wait long. */
export const SWEEP_EVERY_MS = 60 * 60 * 1000;

/** Removes the entries of the render work folder last modified over `olderThanMs` ago; returns their names. */
export async function sweepWorkDir(workDir: string, options: { olderThanMs?: number } = {}): Promise<string[]> {
  const cutoff = Date.now() - (options.olderThanMs ?? ABANDONED_AFTER_MS);
  const names = await readdir(workDir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const swept: string[] = [];
  for (const name of names) {
    const entry = join(workDir, name);
    // Gone meanwhile: its try ended and removed it.
    const info = await lstat(entry).catch(() => null);
    if (!info || info.mtimeMs >= cutoff) continue;
    await rm(entry, { recursive: true, force: true });
    swept.push(name);
  }
  return swept;
}
