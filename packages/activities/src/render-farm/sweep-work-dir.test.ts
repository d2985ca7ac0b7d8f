import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sweepWorkDir } from './sweep-work-dir.ts';

const HOUR = 60 * 60 * 1000;
let workDir: string;

beforeEach(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'vp-render-work-'));
});
afterEach(() => rm(workDir, { recursive: true, force: true }));

/** A try's folder with a file in it, last modified `ageMs` ago. */
async function tryFolder(name: string, ageMs: number): Promise<void> {
  const folder = join(workDir, name);
  await mkdir(join(folder, 'render-abc'), { recursive: true });
  await writeFile(join(folder, 'render-abc', 'video.mp4'), 'frames');
  const then = new Date(Date.now() - ageMs);
  await utimes(join(folder, 'render-abc', 'video.mp4'), then, then);
  await utimes(join(folder, 'render-abc'), then, then);
  await utimes(folder, then, then);
}

const entries = async () => (await readdir(workDir)).sort();

describe('sweeping the render work folder', () => {
  it('removes what a killed worker left (untouched for over 2 hours) and keeps every try that may still be running', async () => {
    await tryFolder('killed-yesterday-1a2b3c4d', 26 * HOUR);
    await tryFolder('killed-3h-ago-5e6f7a8b', 3 * HOUR);
    await tryFolder('at-its-30-minute-limit-9c0d1e2f', 30 * 60 * 1000);
    await tryFolder('just-started-3a4b5c6d', 0);
    await writeFile(join(workDir, 'stray-file'), 'left over');
    await utimes(join(workDir, 'stray-file'), new Date(Date.now() - 5 * HOUR), new Date(Date.now() - 5 * HOUR));

    expect((await sweepWorkDir(workDir)).sort()).toEqual(['killed-3h-ago-5e6f7a8b', 'killed-yesterday-1a2b3c4d', 'stray-file']);
    expect(await entries()).toEqual(['at-its-30-minute-limit-9c0d1e2f', 'just-started-3a4b5c6d']);
  });

  it('finds nothing to sweep in a work folder that does not exist yet', async () => {
    expect(await sweepWorkDir(join(workDir, 'not-made-yet'))).toEqual([]);
  });
});
