import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { devStackEnv, loadConfig, loadDevEnv } from '@vp/config';
import { DEV_STACK_SECRETS, ensureDevSecrets } from './dev-secrets.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vp-secrets-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('the dev stack\'s secrets', () => {
  it('are made on the first run, 32 random bytes each, in a file only its owner reads, and kept after', async () => {
    expect(await ensureDevSecrets(dir)).toEqual(DEV_STACK_SECRETS);
    const file = join(dir, 'secrets.env');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const made = devStackEnv(dir, {});
    for (const name of DEV_STACK_SECRETS) expect(Buffer.from(made[name]!, 'base64')).toHaveLength(32);
    // Every process of the stack accepts them: no built-in secret, no ALLOW_DEV_SECRETS.
    expect(loadConfig(made).secrets.links).toBe(made.LINK_SIGNING_SECRET);

    const before = await readFile(file, 'utf8');
    expect(await ensureDevSecrets(dir)).toEqual([]);
    expect(await readFile(file, 'utf8')).toBe(before);
    // Another stack's folder gets others.
    const other = await mkdtemp(join(tmpdir(), 'vp-secrets-'));
    await ensureDevSecrets(other);
    expect(devStackEnv(other, {}).LINK_SIGNING_SECRET).not.toBe(made.LINK_SIGNING_SECRET);
    await rm(other, { recursive: true, force: true });
  });

  it('gain one added since the file was made, keeping the others as they were', async () => {
    await writeFile(join(dir, 'secrets.env'), 'LINK_SIGNING_SECRET=kept-link-secret-0123456789abcdefghijklmnop\n', { mode: 0o644 });
    expect(await ensureDevSecrets(dir)).toEqual(DEV_STACK_SECRETS.filter((name) => name !== 'LINK_SIGNING_SECRET'));
    expect(devStackEnv(dir, {}).LINK_SIGNING_SECRET).toBe('kept-link-secret-0123456789abcdefghijklmnop');
    expect((await stat(join(dir, 'secrets.env'))).mode & 0o777).toBe(0o600);
  });

  it('yield to variables set in the environment, and reach `pnpm admin` with the running stack\'s addresses', async () => {
    await ensureDevSecrets(dir);
    await writeFile(join(dir, 'dev.env'), 'DATABASE_URL=postgresql://127.0.0.1:54329/video_production\nTEMPORAL_ADDRESS=127.0.0.1:7233\n');
    expect(devStackEnv(dir, { URL_SIGNING_SECRET: 'mine-0123456789abcdefghijklmnopqrstuv' }).URL_SIGNING_SECRET).toBe('mine-0123456789abcdefghijklmnopqrstuv');
    const admin = loadConfig(loadDevEnv(dir, {}));
    expect(admin).toMatchObject({ databaseUrl: 'postgresql://127.0.0.1:54329/video_production', temporal: { address: '127.0.0.1:7233' } });
    expect(admin.secrets.webhookKey).toBe(devStackEnv(dir, {}).WEBHOOK_SECRET_KEY);
    // Pointed at another database, it takes nothing from the dev stack: not its secrets either.
    expect(loadDevEnv(dir, { DATABASE_URL: 'postgresql://db.example.com/prod' })).toEqual({ DATABASE_URL: 'postgresql://db.example.com/prod' });
  });
});
