import { afterAll, beforeAll, describe, expect } from 'vitest';
import { seedAccount, test } from '@vp/testing';
import { verifyWebhook } from '@vp/webhook-verify';
import type { Db } from '@vp/db';
import type { Resolver } from '@vp/net';
import { attemptDelivery, type AttemptDeps } from './attempt.ts';
import { createPing } from './deliveries.ts';
import { createEndpoint, deleteEndpoint, rollSecret, updateEndpoint } from './endpoints.ts';
import { createSecretBox } from './secret.ts';
import type { WebhookSettings } from './settings.ts';
import { startReceiver, type Receiver } from './testing/receiver.ts';

const settings: WebhookSettings = {
  enabled: true, linksEnabled: true, serverKey: 'test-webhook-secret-key-0123456789abcdefgh', linkSecret: 'test-link-signing-secret-0123456789abcdef',
  appUrl: 'https://app.example.com', allowPrivateUrls: true, timeoutMs: 400,
  retryScheduleMs: [50, 50], disableAfterFailures: 3, disableAfterMs: 60 * 60 * 1000,
};
const box = createSecretBox(settings.serverKey);

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

const it = test.extend('deps', async ({ database }) => {
  receiver.received.length = 0;
  receiver.respondWith(() => ({ status: 200, body: 'thanks' }));
  return { db: database.db, settings, box, transport: { ca: receiver.ca } } satisfies AttemptDeps;
});

async function endpointAt(db: Db, url = receiver.url) {
  const { workspace } = await seedAccount(db);
  return createEndpoint(db, box, { workspaceId: workspace.id, url });
}

async function pingTo(db: Db, url?: string) {
  const { row, secret } = await endpointAt(db, url);
  const delivery = await createPing(db, row, settings.appUrl);
  return { endpoint: row, secret, delivery };
}

const deliveryRow = (db: Db, id: string) => db.webhookDelivery.findUniqueOrThrow({ where: { id } });
const endpointRow = (db: Db, id: string) => db.webhookEndpoint.findUniqueOrThrow({ where: { id } });

describe('a delivery attempt', () => {
  it('POSTs the signed event to the endpoint and records the success', async ({ deps }) => {
    const { endpoint, secret, delivery } = await pingTo(deps.db);
    expect(await attemptDelivery(deps, { deliveryId: delivery.id, attempt: 1, retryInMs: 50 })).toEqual({ done: true });

    const [request] = receiver.received;
    expect(request!.headers['service-event-id']).toBe(delivery.eventId);
    expect(request!.headers['service-event-type']).toBe('ping');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(verifyWebhook({ payload: request!.body, header: request!.headers['service-signature'], secret })).toMatchObject({ ok: true });
    expect(JSON.parse(request!.body)).toMatchObject({ id: delivery.eventId, type: 'ping', workspaceId: endpoint.workspaceId, data: { endpointId: endpoint.id } });

    expect(await deliveryRow(deps.db, delivery.id)).toMatchObject({
      status: 'succeeded', attempts: 1, lastResponseStatus: 200, lastResponseBody: 'thanks', lastError: null, nextAttemptAt: null,
      deliveredAt: expect.any(Date), lastAttemptAt: expect.any(Date),
    });
    expect(await endpointRow(deps.db, endpoint.id)).toMatchObject({ consecutiveFailures: 0, lastSuccessAt: expect.any(Date), lastAttemptAt: expect.any(Date) });
  });

  it('is made once: a retried attempt, or an attempt after success, sends nothing again', async ({ deps }) => {
    const { delivery } = await pingTo(deps.db);
    await attemptDelivery(deps, { deliveryId: delivery.id, attempt: 1, retryInMs: 50 });
    expect(await attemptDelivery(deps, { deliveryId: delivery.id, attempt: 1, retryInMs: 50 })).toEqual({ done: true });
    expect(await attemptDelivery(deps, { deliveryId: delivery.id, attempt: 2, retryInMs: 50 })).toEqual({ done: true });
    expect(receiver.received).toHaveLength(1);
  });

  it('two workers racing on the same attempt send it once', async ({ deps }) => {
    const { delivery } = await pingTo(deps.db);
    await Promise.all([1, 2, 3].map(() => attemptDelivery(deps, { deliveryId: delivery.id, attempt: 1, retryInMs: 50 })));
    expect(receiver.received).toHaveLength(1);
    expect((await deliveryRow(deps.db, delivery.id)).attempts).toBe(1);
  });

  it('records a failing answer, schedules the retry, and exhausts after the last attempt', async ({ deps }) => {
    receiver.respondWith(() => ({ status: 503, body: 'down for maintenance' }));
    const { endpoint, delivery } = await pingTo(deps.db);
    const before = Date.now();
    expect(await attemptDelivery(deps, { deliveryId: delivery.id, attempt: 1, retryInMs: 30_000 })).toEqual({ done: false });
    const failed = await deliveryRow(deps.db, delivery.id);
    expect(failed).toMatchObject({ status: 'pending', attempts: 1, lastResponseStatus: 503, lastResponseBody: 'down for maintenance', lastError: 'The endpoint answered 503.', deliveredAt: null });
    expect(failed.nextAttemptAt!.getTime()).toBeGreaterThanOrEqual(before + 30_000);
    expect(await endpointRow(deps.db, endpoint.id)).toMatchObject({ consecutiveFailures: 1, failingSince: expect.any(Date), lastSuccessAt: null });

    expect(await attemptDelivery(deps, { deliveryId: delivery.id, attempt: 2, retryInMs: null })).toEqual({ done: true });
    expect(await deliveryRow(deps.db, delivery.id)).toMatchObject({ status: 'exhausted', attempts: 2, nextAttemptAt: null });
    expect(receiver.received.map((r) => r.headers['service-event-id'])).toEqual([delivery.eventId, delivery.eventId]);
  });

  it('does not follow a redirect: a 3xx is a failure', async ({ deps }) => {
    receiver.respondWith((request) => (request.path === '/hook' ? { status: 307, headers: { location: '/elsewhere' } } : { status: 200 }));
    const { delivery } = await pingTo(deps.db);
    await attemptDelivery(deps, { deliveryId: delivery.id, attempt: 1, retryInMs: 50 });
    expect(receiver.received.map((r) => r.path)).toEqual(['/hook']);
    expect(await deliveryRow(deps.db, delivery.id)).toMatchObject({ status: 'pending', lastResponseStatus: 307, lastError: 'The endpoint answered 307; redirects are not followed.' });
  });

  it('switches the endpoint off at once on 410 Gone, and retries no more', async ({ deps }) => {
    receiver.respondWith(() => ({ status: 410 }));
    const { endpoint, delivery } = await pingTo(deps.db);
    expect(await attemptDelivery(deps, { deliveryId: delivery.id, attempt: 1, retryInMs: 50 })).toEqual({ done: true });
    expect(await deliveryRow(deps.db, delivery.id)).toMatchObject({ status: 'exhausted', lastResponseStatus: 410, nextAttemptAt: null });
    expect(await endpointRow(deps.db, endpoint.id)).toMatchObject({ enabled: false, disabledReason: 'The endpoint answered 410 Gone.' });
  });

  it('gives a slow receiver the configured time, then records the timeout', async ({ deps }) => {
    receiver.respondWith(() => ({ status: 200, delayMs: 1500 }));
    const { delivery } = await pingTo(deps.db);
    const started = Date.now();
    expect(await attemptDelivery(deps, { deliveryId: delivery.id, attempt: 1, retryInMs: 50 })).toEqual({ done: false });
    expect(Date.now() - started).toBeLessThan(1200);
    expect(await deliveryRow(deps.db, delivery.id)).toMatchObject({
      status: 'pending', lastResponseStatus: null, lastError: 'Not delivered: no complete answer within 0.4 s.',
    });
  });

  it('keeps at most 4 KiB of the answer', async ({ deps }) => {
    receiver.respondWith(() => ({ status: 500, body: 'é'.repeat(5000) }));
    const { delivery } = await pingTo(deps.db);
    await attemptDelivery(deps, { deliveryId: delivery.id, attempt: 1, retryInMs: 50 });
    const body = (await deliveryRow(deps.db, delivery.id)).lastResponseBody!;
    expect(Buffer.byteLength(body)).toBe(4096);
    expect(body).toBe('é'.repeat(2048));
  });

  it('is not made for a deleted or switched-off endpoint', async ({ deps }) => {
    const a = await pingTo(deps.db);
    await deleteEndpoint(deps.db, a.endpoint.id);
    const b = await pingTo(deps.db);
    await updateEndpoint(deps.db, b.endpoint, { enabled: false });
    for (const { delivery } of [a, b]) {
      expect(await attemptDelivery(deps, { deliveryId: delivery.id, attempt: 1, retryInMs: 50 })).toEqual({ done: true });
    }
    expect(receiver.received).toHaveLength(0);
    expect(await deliveryRow(deps.db, a.delivery.id)).toMatchObject({ status: 'exhausted', attempts: 0, lastError: 'Not sent: the endpoint was deleted.' });
    expect(await deliveryRow(deps.db, b.delivery.id)).toMatchObject({ status: 'exhausted', lastError: 'Not sent: the endpoint was switched off.' });
  });
});

describe('an endpoint', () => {
  it('is switched off at the failure threshold once no attempt has succeeded for the window; a success or re-enabling resets the count', async ({ deps }) => {
    receiver.respondWith(() => ({ status: 500 }));
    const { row: endpoint } = await endpointAt(deps.db);
    const t0 = Date.now();
    const at = (minutes: number) => ({ ...deps, now: () => new Date(t0 + minutes * 60_000) });
    const fail = async (minutes: number) => {
      const delivery = await createPing(deps.db, (await endpointRow(deps.db, endpoint.id)), settings.appUrl);
      await attemptDelivery(at(minutes), { deliveryId: delivery.id, attempt: 1, retryInMs: 50 });
    };
    await fail(0);
    await fail(10);
    await fail(20); // 3 failures, but only for 20 minutes
    expect(await endpointRow(deps.db, endpoint.id)).toMatchObject({ enabled: true, consecutiveFailures: 3 });
    await fail(61); // 4 failures over more than the hour
    expect(await endpointRow(deps.db, endpoint.id)).toMatchObject({
      enabled: false, consecutiveFailures: 4, disabledReason: 'Switched off after 4 failed attempts in a row and no success for 1 hour.',
    });

    const reenabled = await updateEndpoint(deps.db, await endpointRow(deps.db, endpoint.id), { enabled: true });
    expect(reenabled).toMatchObject({ enabled: true, disabledReason: null, consecutiveFailures: 0, failingSince: null });
    await fail(70);
    receiver.respondWith(() => ({ status: 204 }));
    await fail(71);
    expect(await endpointRow(deps.db, endpoint.id)).toMatchObject({ enabled: true, consecutiveFailures: 0, failingSince: null });
  });

  it('signs with both secrets for the overlap after a roll, then with the new one only', async ({ deps }) => {
    const { row: endpoint, secret: old } = await endpointAt(deps.db);
    const { secret: rolled } = await rollSecret(deps.db, box, endpoint);
    const first = await createPing(deps.db, endpoint, settings.appUrl);
    await attemptDelivery(deps, { deliveryId: first.id, attempt: 1, retryInMs: 50 });
    const header = receiver.received[0]!.headers['service-signature'] as string;
    expect(header.match(/v1=/g)).toHaveLength(2);
    for (const secret of [old, rolled]) expect(verifyWebhook({ payload: receiver.received[0]!.body, header, secret }).ok).toBe(true);

    const later = new Date(Date.now() + 24 * 60 * 60 * 1000 + 1000);
    const second = await createPing(deps.db, endpoint, settings.appUrl);
    await attemptDelivery({ ...deps, now: () => later }, { deliveryId: second.id, attempt: 1, retryInMs: 50 });
    const after = receiver.received[1]!.headers['service-signature'] as string;
    expect(after.match(/v1=/g)).toHaveLength(1);
    expect(verifyWebhook({ payload: receiver.received[1]!.body, header: after, secret: rolled, now: later }).ok).toBe(true);
    expect(verifyWebhook({ payload: receiver.received[1]!.body, header: after, secret: old, now: later }).ok).toBe(false);
  });
});

describe('at attempt time, without the development switch', () => {
  const strict = { ...settings, allowPrivateUrls: false };

  it('refuses an endpoint that now points at a private or loopback address, sending nothing', async ({ deps }) => {
    const { delivery } = await pingTo(deps.db);
    await attemptDelivery({ ...deps, settings: strict }, { deliveryId: delivery.id, attempt: 1, retryInMs: 50 });
    expect(receiver.received).toHaveLength(0);
    expect((await deliveryRow(deps.db, delivery.id)).lastError).toBe('Not delivered: localhost (127.0.0.1) is a loopback address, which is not a public address.');
  });

  it('re-resolves the host: a name that was public at create and now resolves inside is refused (DNS rebinding)', async ({ deps }) => {
    const { delivery } = await pingTo(deps.db, `https://hooks.example.test:${receiver.port}/hook`);
    const rebound: Resolver = async () => ['10.0.0.5'];
    await attemptDelivery({ ...deps, settings: strict, transport: { ca: receiver.ca, resolve: rebound } }, { deliveryId: delivery.id, attempt: 1, retryInMs: 50 });
    expect((await deliveryRow(deps.db, delivery.id)).lastError).toContain('hooks.example.test (10.0.0.5) is a private network address');
    expect(receiver.received).toHaveLength(0);
  });

  it('connects to the address it checked: a second, rebinding DNS answer never reaches the local receiver', async ({ deps }) => {
    const { delivery } = await pingTo(deps.db, `https://hooks.example.test:${receiver.port}/hook`);
    const answers = [['93.184.215.14'], ['127.0.0.1']];
    const rebinding: Resolver = async () => answers.shift() ?? ['127.0.0.1'];
    await attemptDelivery({ ...deps, settings: { ...strict, timeoutMs: 300 }, transport: { ca: receiver.ca, resolve: rebinding } }, { deliveryId: delivery.id, attempt: 1, retryInMs: 50 });
    expect(answers).toHaveLength(1); // resolved once
    expect(receiver.received).toHaveLength(0);
    expect((await deliveryRow(deps.db, delivery.id)).lastError).toMatch(/^Not delivered: /);
  });

  it('refuses an http url', async ({ deps }) => {
    const { delivery } = await pingTo(deps.db, `http://hooks.example.test:${receiver.port}/hook`);
    await attemptDelivery({ ...deps, settings: strict }, { deliveryId: delivery.id, attempt: 1, retryInMs: 50 });
    expect((await deliveryRow(deps.db, delivery.id)).lastError).toBe('Not sent: the url must use https.');
  });
});
