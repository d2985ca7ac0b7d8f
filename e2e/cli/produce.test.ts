import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { seedAccount, test } from '@vp/testing';
import { createClient } from '@vp/sdk';
import { servedGateway } from '../sdk/served.ts';
import { releaseRepository } from './git-repo.ts';
import { vp } from './run-vp.ts';

let repo: Awaited<ReturnType<typeof releaseRepository>>;
let home: string;
beforeAll(async () => {
  repo = await releaseRepository();
  home = await mkdtemp(join(tmpdir(), 'vp-home-'));
});
afterAll(async () => {
  await repo?.close();
  await rm(home, { recursive: true, force: true });
});

const it = test.extend('served', { scope: 'file' }, async ({ database }, { onCleanup }) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'vp-cli-data-'));
  const served = await servedGateway(database, { workers: true, render: true, env: { DATA_DIR: dataDir, RENDER_HEARTBEAT_TIMEOUT_MS: '20000' } });
  onCleanup(async () => {
    await served.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  return served;
});

/** A CI job's environment: the key in VP_API_KEY, the service in VP_BASE_URL, a home with nothing in it. */
const ciEnv = (baseUrl: string, apiKey: string) => ({ VP_API_KEY: apiKey, VP_BASE_URL: baseUrl, VP_POLL_INTERVAL_MS: '250', HOME: home, XDG_CONFIG_HOME: join(home, '.config') });

describe('vp produce, end to end against the real service', () => {
  it('turns the last commit into a brief, waits with a live view until delivered and prints the share URL', { timeout: 300_000 }, async ({ served, database }) => {
    const { apiKey } = await seedAccount(database.db, { credits: 100 });
    const env = ciEnv(served.baseUrl, apiKey);

    const run = await vp(['produce', '--wait', '--greenlight', '--duration', '5s', '--template', 'feature'], { cwd: repo.dir, env });
    expect(run.stderr).toContain('left out pnpm-lock.yaml: lock file');
    expect(run.stderr).toMatch(/making · \w+ \d+%/);
    expect(run.code, run.stderr).toBe(0);
    const shareUrl = /Delivered: (\S+)/.exec(run.stdout)?.[1];
    expect(shareUrl).toMatch(/\/share\/[0-9a-f-]{36}$/);

    // What the service got: the brief as the spec shapes it.
    const sdk = createClient({ baseUrl: served.baseUrl, apiKey });
    const [listed] = (await sdk.productions.list({ externalId: `git:${repo.base}..${repo.head}` })).productions;
    const { production } = await sdk.productions.get(listed!.id);
    expect(production.stage).toBe('delivered');
    expect(production.delivery?.shareUrl).toBe(shareUrl);
    expect(production.greenlight?.mode).toBe('auto');
    expect(production.brief.intent).toBe('Export to CSV from the toolbar');
    expect(production.brief.context).toContain('Cells are quoted, so commas in names survive.');
    expect(production.brief.format).toMatchObject({ durationMs: 5000, template: 'feature' });
    expect(production.source).toMatchObject({
      kind: 'api', externalId: `git:${repo.base}..${repo.head}`,
      origin: { provider: 'github', label: 'acme/widgets', url: `https://github.com/acme/widgets/commit/${repo.head}`, ref: 'main', requestedBy: 'Ada Lovelace' },
    });
    const code = production.brief.code ?? [];
    const files = Object.fromEntries(code.map((file) => [file.path, file]));
    expect(Object.keys(files).sort()).toEqual(['CHANGELOG.md', 'button.tsx', 'export.ts', 'icon.png', 'legacy.ts']);
    expect(files['button.tsx']).toMatchObject({ status: 'added', additions: 3, deletions: 0, source: expect.stringContaining('Export to CSV'), sourceOmitted: false });
    expect(files['export.ts']).toMatchObject({ status: 'modified', additions: 3, deletions: 1, patch: expect.stringContaining('+const quote') });
    expect(files['CHANGELOG.md']).toMatchObject({ status: 'renamed', additions: 0, deletions: 0, source: '# Notes\n', patch: expect.stringContaining('rename from NOTES.md') });
    expect(files['legacy.ts']).toMatchObject({ status: 'removed', deletions: 1, source: '', sourceOmitted: true, patch: expect.stringContaining('-export const legacy') });
    expect(files['icon.png']).toMatchObject({ status: 'added', source: '', patch: null, sourceOmitted: true });
    // Scores follow the size and kind of change: new code first, a rename without edits last.
    for (const file of code) expect(file.score).toBeGreaterThan(0);
    expect(files['button.tsx']!.score).toBeGreaterThan(files['icon.png']!.score!);
    expect(files['export.ts']!.score).toBeGreaterThan(files['CHANGELOG.md']!.score!);

    // The same range again replays the same production.
    const again = await vp(['produce', '--json'], { cwd: repo.dir, env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.json().production.id).toBe(production.id);
  });

  it('answers scripts with exit codes they can trust and errors in words with the service code', async ({ served, database }) => {
    const { apiKey } = await seedAccount(database.db, { credits: 100 });
    const env = ciEnv(served.baseUrl, apiKey);

    const missing = await vp(['show', crypto.randomUUID()], { cwd: repo.dir, env });
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/^vp: .+ \(not_found, HTTP 404\)/);

    const wrong = await vp(['produce', '--aspect', '7:5'], { cwd: repo.dir, env });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--aspect is one of');
    expect((await vp(['list', '--colour'], { cwd: repo.dir, env })).code).toBe(2);
    expect((await vp(['frobnicate'], { cwd: repo.dir, env })).code).toBe(2);

    const refused = await vp(['list', '--json'], { cwd: repo.dir, env: { ...env, VP_API_KEY: `svc_live_${'x'.repeat(43)}` } });
    expect(refused.code).toBe(3);
    expect(JSON.parse(refused.stderr)).toMatchObject({ status: 401, error: expect.any(String) });

    const broke = await seedAccount(database.db);
    const unpaid = await vp(['produce', '--json'], { cwd: repo.dir, env: { ...env, VP_API_KEY: broke.apiKey } });
    expect(unpaid.code).toBe(3);
    expect(JSON.parse(unpaid.stderr)).toMatchObject({ status: 402, code: 'credits' });

    const who = await vp(['whoami', '--json'], { cwd: repo.dir, env });
    expect(who.code).toBe(0);
    expect(who.json()).toMatchObject({ baseUrl: served.baseUrl, keyPrefix: apiKey.slice(0, 12), keyFrom: 'VP_API_KEY', usage: { credits: { balance: 100 } } });

    const none = await vp(['list'], { cwd: repo.dir, env: { ...env, VP_API_KEY: '' } });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('vp login');
  });
});
