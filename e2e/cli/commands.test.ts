import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { makeImage } from '@vp/gateway/testing/media';
import { createClient } from '@vp/sdk';
import { verifyWebhook } from '@vp/sdk/webhooks';
import { seedAccount, test, waitFor } from '@vp/testing';
import { startReceiver, type Receiver } from '@vp/webhooks/testing';
import { servedGateway } from '../sdk/served.ts';
import { releaseRepository } from './git-repo.ts';
import { vp } from './run-vp.ts';

let repo: Awaited<ReturnType<typeof releaseRepository>>;
let receiver: Receiver;
let home: string;
beforeAll(async () => {
  [repo, receiver, home] = await Promise.all([releaseRepository(), startReceiver(), mkdtemp(join(tmpdir(), 'vp-home-'))]);
});
afterAll(async () => {
  await Promise.all([repo?.close(), receiver?.close(), rm(home, { recursive: true, force: true })]);
});

const it = test.extend('served', { scope: 'file' }, async ({ database }, { onCleanup }) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'vp-cli-data-'));
  const served = await servedGateway(database, {
    workers: true, render: true, worker: { webhookTransport: { ca: receiver.ca } },
    env: { DATA_DIR: dataDir, ALLOW_PRIVATE_URLS: 'true', RENDER_HEARTBEAT_TIMEOUT_MS: '20000' },
  });
  onCleanup(async () => {
    await served.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  return served;
});

async function signedIn(served: { baseUrl: string }, db: Parameters<typeof seedAccount>[0]) {
  const { apiKey } = await seedAccount(db, { credits: 100 });
  const env = { VP_API_KEY: apiKey, VP_BASE_URL: served.baseUrl, VP_POLL_INTERVAL_MS: '250', HOME: home };
  return { apiKey, run: (...args: string[]) => vp(args, { cwd: repo.dir, env }) };
}

describe('the rest of vp against the real service', () => {
  it('produce prints the pitch; list, show, comment, decline and cancel act on productions; usage', { timeout: 180_000 }, async ({ served, database }) => {
    const { apiKey, run } = await signedIn(served, database.db);
    const produced = await run('produce', '--duration', '5', '--intent', 'Ship CSV export');
    expect(produced.code, produced.stderr).toBe(0);
    expect(produced.stdout).toContain('Ship CSV export');
    expect(produced.stdout).toMatch(/stage: {2}pitch_ready/);
    const id = /id: {5}(\S+)/.exec(produced.stdout)![1]!;

    const listed = await run('list', '--json');
    expect(listed.json().productions.map((p: { id: string }) => p.id)).toEqual([id]);
    expect((await run('list', '--stage', 'pitch_ready')).stdout).toContain(`${id}  pitch_ready`);
    const shown = await run('show', id);
    expect(shown.stdout).toContain('Timeline:');
    expect(shown.stdout).toContain('created');

    const commented = await run('comment', id, 'Shorter intro, please', '--json');
    expect(commented.code, commented.stderr).toBe(0);
    expect(commented.json().production.stage).toBe('writing_pitch');
    const sdk = createClient({ baseUrl: served.baseUrl, apiKey });
    await sdk.waitForProduction(id, { until: 'pitch_ready', intervalMs: 200 });
    expect((await run('decline', id, '--reason', 'not this week')).stdout).toContain(`${id} is declined.`);
    const again = await run('decline', id);
    expect(again.code).toBe(3);
    expect(again.stderr).toMatch(/\(stage, HTTP 409\)/);

    const { production } = await sdk.productions.create({ brief: { intent: 'Cancelled soon', format: { durationMs: 5000 } } });
    const cancelled = await run('cancel', production.id, '--json');
    expect(cancelled.json().production.stage).toBe('cancelled');

    const usage = await run('usage', '--json');
    expect(usage.json().usage.productions.created).toBe(2);
  });

  it('webhooks: create (the secret shown once), list, a signed test ping, its deliveries', { timeout: 120_000 }, async ({ served, database }) => {
    const { run } = await signedIn(served, database.db);
    const created = await run('webhooks', 'create', receiver.url, '--event', 'production.delivered', '--description', 'release bot', '--json');
    expect(created.code, created.stderr).toBe(0);
    const { endpoint } = created.json();
    expect(endpoint).toMatchObject({ url: receiver.url, events: ['production.delivered'], secret: expect.stringMatching(/^whsec_/) });
    expect((await run('webhooks', 'list')).stdout).toContain(`${endpoint.id}  enabled   ${receiver.url}  production.delivered`);

    const tested = await run('webhooks', 'test', endpoint.id);
    expect(tested.stdout).toContain('A signed ping is queued');
    const ping = await waitFor(() => receiver.received.find((request) => request.headers['service-event-type'] === 'ping'), { what: 'the ping' });
    // The receiver checks it with the verifier the SDK re-exports.
    expect(verifyWebhook({ payload: ping.bytes, header: ping.headers['service-signature'], secret: endpoint.secret })).toMatchObject({ ok: true });
    const deliveries = await waitFor(async () => {
      const listed = (await run('webhooks', 'deliveries', endpoint.id, '--json')).json().deliveries;
      return listed[0]?.status === 'succeeded' ? listed : undefined;
    }, { what: 'the delivery to succeed', timeoutMs: 30_000, intervalMs: 500 });
    expect(deliveries).toEqual([expect.objectContaining({ event: 'ping', status: 'succeeded', attempts: 1 })]);
    expect((await run('webhooks', 'rename')).code).toBe(2);
  });

  it('render: images in, a video out, with its progress', { timeout: 240_000 }, async ({ served, database }) => {
    const { run } = await signedIn(served, database.db);
    await writeFile(join(repo.dir, 'shot.png'), await makeImage('png', '854x480'));
    const rendered = await run('render', 'shot.png', '--resolution', '480p', '--app-name', 'Widgets');
    expect(rendered.code, rendered.stderr).toBe(0);
    expect(rendered.stderr).toMatch(/(queued|rendering) \d+%/);
    expect(rendered.stdout).toMatch(/^Rendered: http\S+\/renders\/[0-9a-f-]{36}\/video\.mp4/);
    expect((await run('render')).code).toBe(2);
  });
});
