/**
 * Records the Temporal histories the replay test (packages/workflows/src/replay.test.ts) replays:
 * every workflow type at each point where it waits or ends, made by the real stack (gateway,
 * workers, render worker) through the API. Run on purpose, when workflow code changed in a way
 * the recordings should now cover (`pnpm record-histories`); the recordings of earlier code stay,
 * since productions started by it may still be in flight.
 *
 * Each history is written to packages/workflows/histories/<HISTORIES_LABEL>/<scenario>.json
 * (the label defaults to today's date).
 */
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import type { Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { answerKeyRequest, keyRequestBox, requestKey, type KeyRequestDeps } from '@vp/accounts';
import { workflowIds, type BriefInput, type Stage } from '@vp/contracts';
import type { Mailer, MailMessage } from '@vp/mail';
import { makeImage, startMediaServer } from '@vp/gateway/testing/media';
import { json, withKey } from '@vp/gateway/testing';
import { createTestStack } from '../stack.ts';
import { queueExport, startQueuedExport } from '@vp/projects';
import { keyRequestWorkflows, keyRequestWorkflowSettings, renderFarmWorkflows } from '@vp/temporal-client';
import { seedAccount, test, waitFor } from '@vp/testing';
import { startReceiver, type Receiver } from '@vp/webhooks/testing';

const label = process.env.HISTORIES_LABEL ?? new Date().toISOString().slice(0, 10);
const outDir = new URL(`../../packages/workflows/histories/${label}/`, import.meta.url).pathname;

const mail: MailMessage[] = [];
const mailer: Mailer = { send: async (message) => void mail.push(message) };
let receiver: Receiver;
let media: Awaited<ReturnType<typeof startMediaServer>>;

beforeAll(async () => {
  // Every delivery fails, so that a delivery is recorded while it waits for its retry.
  receiver = await startReceiver(() => ({ status: 500, body: 'not now' }));
  media = await startMediaServer({ '/picture.png': { type: 'image/png', body: await makeImage('png', '1280x720') } });
  await mkdir(outDir, { recursive: true });
});
afterAll(async () => {
  await receiver.close();
  await media.close();
});

type Stack = Awaited<ReturnType<typeof createTestStack>>;

const it = test.extend('stack', { scope: 'file' }, async ({ database }, { onCleanup }) => {
  const stack = await createTestStack(database, {
    render: true,
    env: {
      // The recordings' own key, committed with them (the replay test opens them with it).
      TEMPORAL_PAYLOAD_KEY: readFileSync(new URL('../../packages/workflows/histories/payload-key.txt', import.meta.url), 'utf8').trim(),
      ALLOW_PRIVATE_URLS: 'true', RENDER_HEARTBEAT_TIMEOUT_MS: '20000',
      // The first retry waits a minute: long enough to record the delivery asleep between attempts.
      WEBHOOK_RETRY_SCHEDULE_MS: '60000,120000', WEBHOOK_TIMEOUT_MS: '2000',
    },
    worker: { mailer, webhookTransport: { ca: receiver.ca } },
  });
  onCleanup(stack.close);
  return stack;
});

async function save(client: Client, scenario: string, workflowId: string) {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  await writeFile(join(outDir, `${scenario}.json`), historyToJSON(history));
}

/** An account with credits, calling the API with its key. */
async function caller(stack: Stack, db: Parameters<typeof seedAccount>[0]) {
  const seeded = await seedAccount(db, { credits: 200 });
  const call = (path: string, init: { method?: string; json?: unknown } = {}) => stack.app.request(path, withKey(seeded.apiKey, init));
  // Read at most twice a second: the key's rate limit is 120 a minute.
  const reach = (id: string, stage: Stage, timeoutMs = 150_000) => waitFor(async () => {
    const body = await json(await call(`/v1/productions/${id}`));
    return body.production.stage === stage ? body : undefined;
  }, { what: `stage ${stage}`, timeoutMs, intervalMs: 500 });
  const create = async (brief: BriefInput, greenlightMode: 'manual' | 'auto' = 'manual') => {
    const res = await call('/v1/productions', { json: { brief: { format: { durationMs: 5000 }, ...brief }, greenlightMode } });
    expect(res.status).toBe(201);
    return (await json(res)).production.id as string;
  };
  return { ...seeded, call, reach, create };
}

const BRIEF: BriefInput = {
  intent: 'Show off the faster exports in release 2.4',
  context: 'Exports now stream frames straight into the encoder.',
  code: [{ path: 'src/export/encoder.ts', source: 'export function encode() {}\n', status: 'modified', additions: 40, deletions: 12, score: 0.9 }],
};

describe('recorded histories', () => {
  it('a production waiting at pitch_ready, and one after a comment, then declined', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    const id = await me.create(BRIEF);
    await me.reach(id, 'pitch_ready');
    await save(stack.temporal.client, 'production-pitch-ready', workflowIds.production(id));
    expect((await me.call(`/v1/productions/${id}/comments`, { json: { comment: 'Shorter, please.' } })).status).toBe(200);
    await waitFor(async () => (await json(await me.call(`/v1/productions/${id}`))).production.pitch?.version === 2, { what: 'pitch 2', intervalMs: 500 });
    await me.reach(id, 'pitch_ready');
    await save(stack.temporal.client, 'production-after-comment', workflowIds.production(id));
    expect((await me.call(`/v1/productions/${id}/decline`, { json: { reason: 'Not this time.' } })).status).toBe(200);
    await stack.temporal.client.workflow.getHandle(workflowIds.production(id)).result();
    await save(stack.temporal.client, 'production-declined', workflowIds.production(id));
    // Pitch e-mails go out from the production's own activity now; the link-e-mails workflow of
    // earlier code has its recordings in 2026-11-29/ for the productions that still run it.
  });

  it('a production greenlit through its e-mailed link, recorded while its video is made, then delivered; a re-export', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    const hook = await json(await me.call('/v1/webhooks', { json: { url: receiver.url, events: ['production.greenlit'] } }));
    expect(hook.endpoint.id).toBeTruthy();
    const id = await me.create({ ...BRIEF, media: [{ id: 'picture', kind: 'image', url: `${media.url}/picture.png`, name: 'Picture' }] });
    await me.reach(id, 'pitch_ready');
    const message = await waitFor(() => mail.find((m) => m.text.includes(id) || m.html?.includes(id)), { what: 'the pitch e-mail' });
    const token = /\/go\/([^?\s"]+)\?action=greenlight/.exec(message.text)?.[1];
    expect(token).toBeTruthy();
    expect((await stack.app.request(`/production-links/${token}/greenlight`, { method: 'POST' })).status).toBe(200);
    await waitFor(async () => (await database.db.production.findUniqueOrThrow({ where: { id } })).queue, {
      what: 'the video to be under way', timeoutMs: 60_000, intervalMs: 20,
    }).then((queue) => expect(queue).toBeTruthy());
    await save(stack.temporal.client, 'production-making', workflowIds.production(id));
    const done = await me.reach(id, 'delivered');
    await stack.temporal.client.workflow.getHandle(workflowIds.production(id)).result();
    await save(stack.temporal.client, 'production-delivered', workflowIds.production(id));

    // The greenlit event's delivery failed once and waits a minute for its retry.
    const [delivery] = await database.db.webhookDelivery.findMany({ where: { endpointId: hook.endpoint.id } });
    await waitFor(async () => (await database.db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery!.id } })).attempts === 1, { what: 'the first attempt' });
    await save(stack.temporal.client, 'webhook-delivery-between-retries', workflowIds.webhookDelivery(delivery!.id));

    const projectId = done.production.projectId as string;
    // A re-export, as the app's project page asks for one.
    const made = await queueExport(database.db, { id: randomUUID(), projectId, version: 1 });
    if (!made || made === 'busy') throw new Error(`The re-export was not queued: ${made}`);
    const workflows = renderFarmWorkflows(stack.temporal.client, { taskQueuePrefix: stack.config.temporal.taskQueuePrefix, heartbeatTimeoutMs: stack.config.render.heartbeatTimeoutMs });
    await startQueuedExport({ db: database.db, workflows }, made, done.production.workspaceId);
    await stack.temporal.client.workflow.getHandle(workflowIds.export(made.id)).result();
    await save(stack.temporal.client, 'export', workflowIds.export(made.id));
  });

  it('a production greenlit automatically and cancelled while its video is made; its video discarded', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    const id = await me.create(BRIEF, 'auto');
    await me.reach(id, 'making');
    expect((await me.call(`/v1/productions/${id}/cancel`, { json: { reason: 'Changed our minds.' } })).status).toBe(200);
    await stack.temporal.client.workflow.getHandle(workflowIds.production(id)).result();
    await save(stack.temporal.client, 'production-auto-cancelled-making', workflowIds.production(id));
    const { delivery: _none, ...row } = await database.db.production.findUniqueOrThrow({ where: { id } });
    const exportId = (await database.db.export.findFirstOrThrow({ where: { projectId: row.projectId! } })).id;
    const discard = stack.temporal.client.workflow.getHandle(workflowIds.discardVideo(exportId));
    await waitFor(() => discard.describe().then(() => true, () => false), { what: 'the discard' });
    await discard.result();
    await save(stack.temporal.client, 'discard-video', workflowIds.discardVideo(exportId));
  });

  it('a production cancelled at pitch_ready, one skipped, one failed and refunded', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    const cancelled = await me.create(BRIEF);
    await me.reach(cancelled, 'pitch_ready');
    expect((await me.call(`/v1/productions/${cancelled}/cancel`, { json: {} })).status).toBe(200);
    await stack.temporal.client.workflow.getHandle(workflowIds.production(cancelled)).result();
    await save(stack.temporal.client, 'production-cancelled-pitch-ready', workflowIds.production(cancelled));

    const skipped = await me.create({ intent: 'Bump the lockfile', code: [{ path: 'pnpm-lock.yaml', source: 'lockfileVersion: 9\n', status: 'modified', additions: 3, deletions: 3 }] });
    await me.reach(skipped, 'skipped');
    await stack.temporal.client.workflow.getHandle(workflowIds.production(skipped)).result();
    await save(stack.temporal.client, 'production-skipped', workflowIds.production(skipped));

    const failed = await me.create({ intent: 'Show off the new dashboard', media: [{ id: 'gone', kind: 'image', url: `${media.url}/gone.png`, name: 'Gone' }] });
    await me.reach(failed, 'pitch_ready');
    const pitch = (await json(await me.call(`/v1/productions/${failed}`))).production.pitch;
    expect(pitch.shots.some((shot: { mediaIds: string[] }) => shot.mediaIds.includes('gone'))).toBe(true);
    expect((await me.call(`/v1/productions/${failed}/greenlight`, { json: { pitchVersion: 1 } })).status).toBe(200);
    await me.reach(failed, 'failed');
    await stack.temporal.client.workflow.getHandle(workflowIds.production(failed)).result();
    await save(stack.temporal.client, 'production-failed', workflowIds.production(failed));
  });

  it('a one-call render, and the outbox sweep', async ({ stack, database }) => {
    const seeded = await seedAccount(database.db, { credits: 0, scopes: ['renders'] });
    const body = new FormData();
    body.append('images', new Blob([await makeImage('png', '1280x720')], { type: 'image/png' }), 'one.png');
    body.append('resolution', '480p');
    const res = await stack.app.request('/v1/renders', { method: 'POST', body, headers: { authorization: `Bearer ${seeded.apiKey}` } });
    expect(res.status).toBe(200);
    const { render } = await json(res);
    await save(stack.temporal.client, 'render', workflowIds.render(render.id));

    const sweepId = `record-outbox-sweep-${Date.now()}`;
    await stack.temporal.client.workflow.execute('webhookOutboxSweepWorkflow', {
      workflowId: sweepId, taskQueue: `${stack.config.temporal.taskQueuePrefix}-webhooks`, args: [],
    });
    await save(stack.temporal.client, 'webhook-outbox-sweep', sweepId);
  });

  it('device key requests: waiting for an answer, denied, expired unanswered, expired unclaimed, claimed then revoked', async ({ stack, database }) => {
    const { account } = await seedAccount(database.db);
    const person = { accountId: account.id, actor: `user:${account.id}`, via: 'app' } as const;
    const flow = (timers: { pendingMs?: number; claimWindowMs?: number } = {}): KeyRequestDeps => {
      const settings = { ...keyRequestWorkflowSettings(stack.config), ...timers };
      return { db: database.db, appUrl: stack.config.appUrl, pendingMs: settings.pendingMs, box: keyRequestBox(stack.config.secrets), workflows: keyRequestWorkflows(stack.temporal.client, settings) };
    };
    const idOf = async (started: { userCode: string }) => (await database.db.keyRequest.findFirstOrThrow({ where: { userCode: started.userCode.replace('-', '') } })).id;
    const ended = async (scenario: string, started: { userCode: string }) => {
      const workflowId = workflowIds.keyRequest(await idOf(started));
      await stack.temporal.client.workflow.getHandle(workflowId).result();
      await save(stack.temporal.client, scenario, workflowId);
    };
    const poll = async (body: unknown) => json(await stack.app.request('/v1/keys/poll', withKey(null, { json: body })));

    const waiting = await json(await stack.app.request('/v1/keys/request', withKey(null, { json: { name: 'recorded CLI' } })));
    const waitingId = workflowIds.keyRequest(await idOf(waiting));
    await waitFor(async () => (await stack.temporal.client.workflow.getHandle(waitingId).fetchHistory()).events?.some((e) => e.timerStartedEventAttributes), { what: 'the request to wait' });
    await save(stack.temporal.client, 'key-request-pending', waitingId);

    const denied = await requestKey(flow(), { name: 'denied', requestedFrom: null });
    await answerKeyRequest(flow(), person, { code: denied.userCode, answer: 'deny' });
    await ended('key-request-denied', denied);

    const unanswered = await requestKey(flow({ pendingMs: 1000 }), { name: 'unanswered', requestedFrom: null });
    await ended('key-request-expired-unanswered', unanswered);

    const unclaimed = await requestKey(flow({ claimWindowMs: 1000 }), { name: 'unclaimed', requestedFrom: null });
    await answerKeyRequest(flow(), person, { code: unclaimed.userCode, answer: 'approve' });
    await ended('key-request-expired-unclaimed', unclaimed);

    await answerKeyRequest(flow(), person, { code: waiting.userCode, answer: 'approve' });
    const polls = await Promise.all([poll({ deviceCode: waiting.deviceCode }), poll({ deviceCode: waiting.deviceCode })]);
    expect(polls.filter((p) => p.apiKey)).toHaveLength(1);
    expect(await poll({ deviceCode: waiting.deviceCode, revokeClaimed: true })).toEqual({ status: 'expired' });
    await ended('key-request-claimed-revoked', waiting);
  });
});
