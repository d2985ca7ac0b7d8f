import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { Mailer, MailMessage } from '@vp/mail';
import { ANY_TESTS_PLAINTEXT, findPlaintext, rawRuns, seedAccount, test, testSecrets, waitFor } from '@vp/testing';
import { startReceiver, type Receiver } from '@vp/webhooks/testing';
import { json, withKey } from '@vp/gateway/testing';
import { createTestStack } from '../stack.ts';

/**
 * Issue 40, item 4: nothing readable in Temporal's history. A production goes through an e-mailed
 * link's comment and greenlight to its delivery, another is declined and a third cancelled, each
 * with words of its own; then every workflow run on the test run's Temporal server (this file's
 * and any other file's made so far) is read raw, without the payload codec, and searched. The
 * run's global teardown searches every run again, once every file has ended, for what any test's
 * runs must not show (`ANY_TESTS_PLAINTEXT`).
 */
const mail: MailMessage[] = [];
const mailer: Mailer = { send: async (message) => void mail.push(message) };
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

const it = test.extend('stack', { scope: 'file' }, async ({ database }, { onCleanup }) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'vp-history-'));
  const stack = await createTestStack(database, {
    render: true,
    env: { DATA_DIR: dataDir, ALLOW_PRIVATE_URLS: 'true', TRUST_PROXY: 'true', RENDER_HEARTBEAT_TIMEOUT_MS: '20000' },
    worker: { webhookTransport: { ca: receiver.ca }, mailer },
  });
  onCleanup(async () => {
    await stack.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  return stack;
});

// Words no code would write by itself, so that any match is ours.
const mark = randomBytes(6).toString('hex');
const words = {
  intent: `Announce the zebra-${mark} exporter`,
  comment: `Please mention the walrus-${mark} benchmark`,
  decline: `Not now, the okapi-${mark} launch slipped`,
  cancel: `Stopped: the narwhal-${mark} budget moved`,
};

describe('Temporal history, read raw from the server', () => {
  it('holds no secret, e-mail address, comment, reason, brief text or project address in plaintext', async ({ stack, database }) => {
    const { db } = database;
    const email = `history-${mark}@example.test`;
    const me = await seedAccount(db, { credits: 100, email });
    const call = (path: string, init: { method?: string; json?: unknown } = {}) => stack.app.request(path, withKey(me.apiKey, init));
    const hook = (await json(await call('/v1/webhooks', { json: { url: `https://localhost:${receiver.port}/history-${mark}` } }))).endpoint;
    const create = async () => (await json(await call('/v1/productions', { json: { brief: { intent: words.intent, format: { durationMs: 5000 } } } }))).production;
    const stage = async (id: string) => (await db.production.findUniqueOrThrow({ where: { id } })).stage;
    /** The greenlight-link tokens e-mailed for a production so far, oldest first (one per pitch version). */
    const emailedLinks = (id: string) => mail.filter((m) => m.to === email && m.text.includes(id)).map((m) => /\/go\/([^?\s]+)\?action=greenlight/.exec(m.text)?.[1]).filter((t) => t !== undefined);
    const nthLink = (id: string, n: number) => waitFor(() => emailedLinks(id)[n - 1], { what: `the e-mailed link to pitch ${n}` });
    const fromLink = (token: string, action: 'comments' | 'greenlight', body?: unknown) =>
      stack.app.request(`/production-links/${token}/${action}`, withKey(null, { ...(body === undefined ? { method: 'POST' } : { json: body }), headers: { 'x-forwarded-for': '203.0.113.40' } }));

    // Commented on and greenlit through the e-mailed links (the actor is the e-mail address), then delivered.
    const made = await create();
    const first = await nthLink(made.id, 1);
    expect((await fromLink(first, 'comments', { comment: words.comment })).status).toBe(200);
    const second = await nthLink(made.id, 2);
    expect((await fromLink(second, 'greenlight')).status).toBe(200);
    await waitFor(async () => await stage(made.id) === 'delivered', { what: 'the delivery', timeoutMs: 150_000, intervalMs: 200 });
    const { delivery } = (await json(await call(`/v1/productions/${made.id}`))).production;

    // Declined and cancelled with reasons.
    const declined = await create();
    await waitFor(async () => await stage(declined.id) === 'pitch_ready', { what: 'a pitch to decline' });
    expect((await call(`/v1/productions/${declined.id}/decline`, { json: { reason: words.decline } })).status).toBe(200);
    const cancelled = await create();
    await waitFor(async () => await stage(cancelled.id) === 'pitch_ready', { what: 'a pitch to cancel' });
    expect((await call(`/v1/productions/${cancelled.id}/cancel`, { json: { reason: words.cancel } })).status).toBe(200);
    // Every event reached the endpoint: the delivery workflows have run too.
    await waitFor(() => receiver.received.filter((r) => r.path === `/history-${mark}` && ['production.delivered', 'production.declined', 'production.cancelled'].includes(String(r.headers['service-event-type']))).length === 3, { what: 'the last events' });
    expect((await db.productionEvent.findMany({ where: { productionId: made.id, kind: 'comment' } })).length).toBe(1);

    const needles = [
      ...Object.values(words), email, me.apiKey, hook.secret, first, second, delivery.editUrl, delivery.shareUrl, ...Object.values(testSecrets),
      // Whoever made them: any test's e-mail address, any project's edit or share address, any key.
      ...ANY_TESTS_PLAINTEXT,
    ];
    const scan = await findPlaintext(rawRuns(stack.temporal.client.connection), needles);
    // This file's own runs are among them: its productions, their webhook deliveries.
    expect(scan.byType).toMatchObject({ productionWorkflow: expect.any(Number), webhookDeliveryWorkflow: expect.any(Number) });
    expect(scan.byType.productionWorkflow).toBeGreaterThanOrEqual(3);
    expect(scan.findings).toEqual([]);
  }, 240_000);
});
