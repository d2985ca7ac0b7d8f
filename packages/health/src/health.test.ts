import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { touchWhenHealthy } from './index.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vp-health-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const exists = (path: string) => stat(path).then(() => true, () => false);

describe('the heartbeat a health check reads', () => {
  it('is written when every probe answers', async () => {
    const file = join(dir, 'healthy');
    await touchWhenHealthy(file, { temporal: async () => 'ok', database: async () => 1 });
    expect(new Date((await readFile(file, 'utf8')).trim()).getTime()).not.toBeNaN();
  });

  it('is not written when a probe fails or never answers, and says which', async () => {
    const file = join(dir, 'healthy');
    const never = () => new Promise(() => {});
    const failure = touchWhenHealthy(file, { temporal: never, database: async () => { throw new Error('connection refused'); }, fine: async () => 1 }, 50);
    await expect(failure).rejects.toThrow(/temporal: no answer within 50 ms; database: connection refused/);
    expect(await exists(file)).toBe(false);
  });

  it('leaves the last proof in place when it fails: the file ages until the health check gives up', async () => {
    const file = join(dir, 'healthy');
    await touchWhenHealthy(file, { database: async () => 1 });
    const written = await readFile(file, 'utf8');
    await expect(touchWhenHealthy(file, { database: async () => { throw new Error('gone'); } })).rejects.toThrow(/database: gone/);
    expect(await readFile(file, 'utf8')).toBe(written);
  });
});
