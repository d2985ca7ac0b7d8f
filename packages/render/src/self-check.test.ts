import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { selfCheckRender } from './self-check.ts';

const workDir = await mkdtemp(join(tmpdir(), 'vp-self-check-'));
afterAll(() => rm(workDir, { recursive: true, force: true }));

describe('selfCheckRender', () => {
  it('renders and reviews a 5 s 1080p production with code and sound, and leaves nothing behind', async () => {
    const result = await selfCheckRender(workDir);
    expect(result).toMatchObject({ width: 1920, height: 1080, durationMs: 5000 });
    expect(Math.abs(result.review.durationMs - 5000)).toBeLessThanOrEqual(34);
    expect(await readdir(workDir)).toEqual([]);
  }, 60_000);

  it('makes its work folder when there is none yet', async () => {
    await selfCheckRender(join(workDir, 'new', 'render-work'));
    expect(await readdir(join(workDir, 'new', 'render-work'))).toEqual([]);
  }, 60_000);

  it('fails, saying why, where the work folder cannot be made', async () => {
    const file = join(workDir, 'a-file');
    await writeFile(file, '');
    await expect(selfCheckRender(join(file, 'render-work'))).rejects.toThrow(/ENOTDIR/);
  });
});
