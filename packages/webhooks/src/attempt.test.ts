import { afterAll, beforeAll, describe, expect, vi } from 'vitest';
import { ATTEMPT_MARGIN_MS } from '@vp/contracts';
import { failWrites, seedAccount, test, waitFor } from '@vp/testing';
import { verifyWebhook } from '@vp/webhook-verify';
import { sqlPool, type Db } from '@vp/db';
import type { Resolver } from '@vp/net';
import { attemptDelivery, storedResponseBody, type AttemptDeps } from './attempt.ts';
import { claimAttempt, endDelivery, recordFailure } from './attempt-store.ts';
import { createPing } from './deliveries.ts';
import { insertEndpoint, markEndpointDeleted, resealSecrets, rotateSecret, saveEndpointChanges } from './endpoints.ts';
import { createSecretBox } from './secret.ts';
import type { WebhookSettings } from './settings.ts';
import { startReceiver, type Receiver } from './testing/receiver.ts';

const settings: WebhookSettings = {
  enabled: true, linksEnabled: true, serverKey: 'test-webhook-secret-key-0123456789abcdefgh', previousServerKey: null, linkSecret: 'test-link-signing-secret-0123456789abcdef',
  appUrl: 'https://app.example.com', allowPrivateUrls: true, timeoutMs: 400,
  retryScheduleMs: [50, 50], disableAfterFailures: 3, disableAfterMs: 60 * 60 * 1000,
};
const box = createSecretBox(settings.serverKey);
const HOUR = 60 * 60 * 1000;

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
  return insertEndpoint(db, box, { workspaceId: workspace.id, url });
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

  it('two workers racing on the same attempt send it once; a loser that finds it under way fails, and its retry finds it recorded', async ({ deps }) => {
    const { delivery } = await pingTo(deps.db);
    const input = { deliveryId: delivery.id, attempt: 1, retryInMs: 50 };
    const raced = await Promise.allSettled([1, 2, 3].map(() => attemptDelivery(deps, input)));
    expect(raced.filter((r) => r.status === 'fulfilled').length).toBeGreaterThanOrEqual(1);
    for (const r of raced) if (r.status === 'rejected') expect(String(r.reason)).toMatch(/under way/);
    expect(await attemptDelivery(deps, input)).toEqual({ done: true });
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
    const off = await endpointRow(deps.db, endpoint.id);
    expect(off).toMatchObject({ enabled: false, disabledReason: 'The endpoint answered 410 Gone.' });
    expect(off.updatedAt.getTime()).toBeGreaterThan(endpoint.updatedAt.getTime());
  });

  it('gives a slow receiver the configured time, then records the timeout', async ({ deps }) => {
    // The receiver holds its 200 until the attempt has ended: only the attempt's own time limit can end it.
    let answer!: () => void;
    receiver.respondWith(() => ({ status: 200, after: new Promise<void>((resolve) => (answer = resolve)) }));
    const { delivery } = await pingTo(deps.db);
    expect(await attemptDelivery(deps, { deliveryId: delivery.id, attempt: 1, retryInMs: 50 })).toEqual({ done: false });
    answer();
    expect(await deliveryRow(deps.db, delivery.id)).toMatchObject({
      status: 'pending', lastResponseStatus: null, lastError: 'Not delivered: no complete answer within 0.4 s.',
    });
  });

  it('takes a 2xx as the answer however its body ends: one that does not end in time is still a success', async ({ deps }) => {
    receiver.respondWith(() => ({ status: 200, body: 'thanks', bodyDelayMs: 1500 }));
    const { delivery } = await pingTo(deps.db);
    expect(await attemptDelivery(deps, { deliveryId: delivery.id, attempt: 1, retryInMs: 50 })).toEqual({ done: true });
    expect(await deliveryRow(deps.db, delivery.id)).toMatchObject({
      status: 'succeeded', attempts: 1, lastResponseStatus: 200, lastResponseBody: '', lastError: null, nextAttemptAt: null,
    });
    // A 500 whose body does not end in time is a failure with its status.
    receiver.respondWith(() => ({ status: 500, body: 'oops', bodyDelayMs: 1500 }));
    const failing = await pingTo(deps.db);
    expect(await attemptDelivery(deps, { deliveryId: failing.delivery.id, attempt: 1, retryInMs: 50 })).toEqual({ done: false });
    expect(await deliveryRow(deps.db, failing.delivery.id)).toMatchObject({ status: 'pending', lastResponseStatus: 500, lastError: 'The endpoint answered 500.' });
  });

  it('keeps at most 4 KiB of the answer', async ({ deps }) => {
    receiver.respondWith(() => ({ status: 500, body: 'é'.repeat(5000) }));
    const { delivery } = await pingTo(deps.db);
    await attemptDelivery(deps, { deliveryId: delivery.id, attempt: 1, retryInMs: 50 });
    const body = (await deliveryRow(deps.db, delivery.id)).lastResponseBody!;
    expect(Buffer.byteLength(body)).toBe(4096);
    expect(body).toBe('é'.repeat(2048));
  });

  it('stores a 2xx answer whose body holds NUL bytes with U+FFFD in their place: delivered once, counted as a success', async ({ deps }) => {
    receiver.respondWith(() => ({ status: 200, body: 'ok\0\0done\0' }));
    const { endpoint, delivery } = await pingTo(deps.db);
    expect(await attemptDelivery(deps, { deliveryId: delivery.id, attempt: 1, retryInMs: 50 })).toEqual({ done: true });
    expect(await attemptDelivery(deps, { deliveryId: delivery.id, attempt: 2, retryInMs: 50 })).toEqual({ done: true });
    expect(receiver.received).toHaveLength(1);
    expect(await deliveryRow(deps.db, delivery.id)).toMatchObject({
      status: 'succeeded', attempts: 1, lastResponseStatus: 200, lastResponseBody: 'ok\uFFFD\uFFFDdone\uFFFD', lastError: null,
    });
    expect(await endpointRow(deps.db, endpoint.id)).toMatchObject({ consecutiveFailures: 0, lastSuccessAt: expect.any(Date) });
  });

  it('records a 410 Gone whose body holds NUL bytes: the endpoint is switched off', async ({ deps }) => {
    receiver.respondWith(() => ({ status: 410, body: 'gone\0' }));
    const { endpoint, delivery } = await pingTo(deps.db);
    expect(await attemptDelivery(deps, { deliveryId: delivery.id, attempt: 1, retryInMs: 50 })).toEqual({ done: true });
    expect(await deliveryRow(deps.db, delivery.id)).toMatchObject({ status: 'exhausted', lastResponseStatus: 410, lastResponseBody: 'gone\uFFFD' });
    expect(await endpointRow(deps.db, endpoint.id)).toMatchObject({ enabled: false, consecutiveFailures: 1 });
  });

  it('keeps as much of a body that is not UTF-8 (Latin-1) as fits in 4 KiB once decoded', async ({ deps }) => {
    receiver.respondWith(() => ({ status: 500, body: Buffer.from('é'.repeat(4003), 'latin1') }));
    const { delivery } = await pingTo(deps.db);
    await attemptDelivery(deps, { deliveryId: delivery.id, attempt: 1, retryInMs: 50 });
    // Each byte decodes to U+FFFD, 3 bytes of UTF-8: 1365 of them fit.
    expect((await deliveryRow(deps.db, delivery.id)).lastResponseBody).toBe('\uFFFD'.repeat(1365));
  });

  it('is not made for a deleted or switched-off endpoint', async ({ deps }) => {
    const a = await pingTo(deps.db);
    await markEndpointDeleted(deps.db, a.endpoint.id);
    const b = await pingTo(deps.db);
    await saveEndpointChanges(deps.db, b.endpoint, { enabled: false });
    for (const { delivery } of [a, b]) {
      expect(await attemptDelivery(deps, { deliveryId: delivery.id, attempt: 1, retryInMs: 50 })).toEqual({ done: true });
    }
    expect(receiver.received).toHaveLength(0);
    expect(await deliveryRow(deps.db, a.delivery.id)).toMatchObject({ status: 'exhausted', attempts: 0, lastError: 'Not sent: the endpoint was deleted.' });
    expect(await deliveryRow(deps.db, b.delivery.id)).toMatchObject({ status: 'exhausted', lastError: 'Not sent: the endpoint was switched off.' });
  });
});

describe('when the outcome of an attempt cannot be recorded (the database fails after the send)', () => {
  /** The write that records this delivery's outcome fails once, as it would with the database unavailable. */
  const failRecordOnce = (db: Db, deliveryId: string) =>
    failWrites(db, { table: 'webhook_deliveries', on: 'UPDATE', when: `NEW.id = '${deliveryId}' AND NEW.status <> OLD.status` });
  const afterClaimLapses = () => new Date(Date.now() + settings.timeoutMs + ATTEMPT_MARGIN_MS + 1000);

  it('the retried last attempt waits for its claim to lapse, then sends the event again and records the 2xx: never exhausted', async ({ deps }) => {
    const { endpoint, delivery } = await pingTo(deps.db);
    await failRecordOnce(deps.db, delivery.id);
    const last = { deliveryId: delivery.id, attempt: 1, retryInMs: null };
    await expect(attemptDelivery(deps, last)).rejects.toThrow(/the database is unavailable/);
    expect(receiver.received).toHaveLength(1);

    // Retried at once: the attempt might still be under way elsewhere, so nothing is sent and the activity fails again.
    await expect(attemptDelivery(deps, last)).rejects.toThrow(/under way or its outcome was not recorded/);
    expect(receiver.received).toHaveLength(1);
    expect(await deliveryRow(deps.db, delivery.id)).toMatchObject({ status: 'pending', attempts: 1 });

    expect(await attemptDelivery({ ...deps, now: afterClaimLapses }, last)).toEqual({ done: true });
    expect(receiver.received.map((r) => r.headers['service-event-id'])).toEqual([delivery.eventId, delivery.eventId]);
    expect(await deliveryRow(deps.db, delivery.id)).toMatchObject({ status: 'succeeded', attempts: 1, lastResponseStatus: 200, lastResponseBody: 'thanks', lastError: null });
    expect(await endpointRow(deps.db, endpoint.id)).toMatchObject({ consecutiveFailures: 0, lastSuccessAt: expect.any(Date) });
  });

  it('a failure recorded before is not sent again by a retry, however late: the schedule goes on', async ({ deps }) => {
    receiver.respondWith(() => ({ status: 503 }));
    const { delivery } = await pingTo(deps.db);
    const first = { deliveryId: delivery.id, attempt: 1, retryInMs: 30_000 };
    expect(await attemptDelivery(deps, first)).toEqual({ done: false });
    expect(await attemptDelivery({ ...deps, now: afterClaimLapses }, first)).toEqual({ done: false });
    expect(receiver.received).toHaveLength(1);
    expect(await deliveryRow(deps.db, delivery.id)).toMatchObject({ status: 'pending', attempts: 1, lastResponseStatus: 503 });
  });
});

describe('an attempt whose two runs overlap (a worker cut off from Temporal, a local activity past its timeout)', () => {
  it('records nothing on a delivery the other run has ended: an ended delivery never moves again', async ({ deps }) => {
    receiver.respondWith(() => ({ status: 503, delayMs: 300 }));
    const { endpoint, delivery } = await pingTo(deps.db);
    const first = { deliveryId: delivery.id, attempt: 1, retryInMs: 30_000 };
    const slow = attemptDelivery(deps, first);
    await vi.waitFor(() => expect(receiver.received).toHaveLength(1));
    // While it waits for its answer, the endpoint is switched off and the other run ends the delivery.
    await saveEndpointChanges(deps.db, endpoint, { enabled: false });
    expect(await attemptDelivery(deps, first)).toEqual({ done: true });
    await slow;
    expect(await deliveryRow(deps.db, delivery.id)).toMatchObject({
      status: 'exhausted', nextAttemptAt: null, lastResponseStatus: null, lastError: 'No answer recorded: the endpoint was switched off.',
    });
  });

  it('leaves a succeeded delivery succeeded when the other run, finding the endpoint off, ends it', async ({ deps }) => {
    const { endpoint, delivery } = await pingTo(deps.db);
    expect(await attemptDelivery(deps, { deliveryId: delivery.id, attempt: 1, retryInMs: 50 })).toEqual({ done: true });
    await endDelivery(deps.db, delivery.id, 'No answer recorded: the endpoint was switched off.');
    expect(await deliveryRow(deps.db, delivery.id)).toMatchObject({ status: 'succeeded', lastError: null });
    expect((await endpointRow(deps.db, endpoint.id)).enabled).toBe(true);
  });
});

describe('a delivery while webhooks are switched off on the server', () => {
  it('is held: nothing is sent or spent, the delivery says why, and it goes out once they are back on', async ({ deps }) => {
    const { endpoint, delivery } = await pingTo(deps.db);
    const off = { ...deps, settings: { ...settings, enabled: false } };
    for (let check = 0; check < 2; check++) {
      expect(await attemptDelivery(off, { deliveryId: delivery.id, attempt: 1, retryInMs: 50 })).toEqual({ done: false, held: true });
    }
    expect(receiver.received).toHaveLength(0);
    expect(await deliveryRow(deps.db, delivery.id)).toMatchObject({ status: 'pending', attempts: 0, lastError: expect.stringMatching(/switched off on this server/) });
    expect(await endpointRow(deps.db, endpoint.id)).toMatchObject({ enabled: true, consecutiveFailures: 0 });

    expect(await attemptDelivery(deps, { deliveryId: delivery.id, attempt: 1, retryInMs: 50 })).toEqual({ done: true });
    expect(receiver.received).toHaveLength(1);
    expect(await deliveryRow(deps.db, delivery.id)).toMatchObject({ status: 'succeeded', attempts: 1, lastError: null });
    // Once it is not pending (ended, or pruned), holding it is over: its workflow ends.
    expect(await attemptDelivery(off, { deliveryId: delivery.id, attempt: 2, retryInMs: 50 })).toEqual({ done: true });
    await deps.db.webhookDelivery.delete({ where: { id: delivery.id } });
    expect(await attemptDelivery(off, { deliveryId: delivery.id, attempt: 2, retryInMs: 50 })).toEqual({ done: true });
  });
});

describe('a delivery this server cannot sign', () => {
  it('says why on the delivery, counts nothing against the endpoint, and is sent once the key is right', async ({ deps }) => {
    const { endpoint, delivery } = await pingTo(deps.db);
    const t0 = Date.now();
    const wrongKey = { ...deps, box: createSecretBox('another-webhook-secret-key-0123456789abcd'), now: () => new Date(t0) };
    await expect(attemptDelivery(wrongKey, { deliveryId: delivery.id, attempt: 1, retryInMs: 50 })).rejects.toThrow();
    expect(receiver.received).toHaveLength(0);
    expect(await deliveryRow(deps.db, delivery.id)).toMatchObject({ status: 'pending', attempts: 1, lastError: 'Not sent yet: this server cannot read the endpoint\'s signing secret. It is tried again.' });
    expect(await endpointRow(deps.db, endpoint.id)).toMatchObject({ enabled: true, consecutiveFailures: 0 });

    // The key put right: the attempt is made again once its claim lapses.
    const later = { ...deps, now: () => new Date(t0 + settings.timeoutMs + ATTEMPT_MARGIN_MS + 1) };
    expect(await attemptDelivery(later, { deliveryId: delivery.id, attempt: 1, retryInMs: 50 })).toEqual({ done: true });
    expect(await deliveryRow(deps.db, delivery.id)).toMatchObject({ status: 'succeeded', lastError: null });
  });
});

describe('rotating the server key (WEBHOOK_SECRET_KEY_PREVIOUS, then admin webhooks reseal)', () => {
  it('keeps every endpoint signing while both keys open its secrets, and reseals them all with the new one', async ({ deps }) => {
    const { endpoint, secret, delivery } = await pingTo(deps.db);
    await rotateSecret(deps.db, box, endpoint);
    const newKey = 'the-new-webhook-secret-key-0123456789abcd';
    const rotating = createSecretBox(newKey, [settings.serverKey]);
    expect(await attemptDelivery({ ...deps, box: rotating }, { deliveryId: delivery.id, attempt: 1, retryInMs: 50 })).toEqual({ done: true });
    // Signed with both of its secrets, the one rolled and the one before, opened with the previous key.
    expect(verifyWebhook({ payload: receiver.received[0]!.body, header: receiver.received[0]!.headers['service-signature'], secret })).toMatchObject({ ok: true });

    const first = await resealSecrets(deps.db, rotating);
    expect(first.resealed).toBeGreaterThanOrEqual(1);
    expect(first.unreadable).toEqual([]);
    expect(await resealSecrets(deps.db, rotating)).toEqual({ resealed: 0, unreadable: [], unsettled: [] });
    const row = await endpointRow(deps.db, endpoint.id);
    const newOnly = createSecretBox(newKey);
    expect(newOnly.open(row.previousSecretEncrypted!, endpoint.id)).toBe(secret);
    expect(newOnly.sealedWithCurrentKey(row.secretEncrypted, endpoint.id)).toBe(true);
    // A secret neither key opens is left as it is, and named.
    const stranger = await endpointAt(deps.db);
    const { unreadable } = await resealSecrets(deps.db, createSecretBox('yet-another-webhook-key-0123456789abcdef', [newKey]));
    expect(unreadable).toContain(stranger.row.id);
  });
});

describe('resealing after a key change', () => {
  it('leaves a previous secret past its overlap alone: it signs nothing, whatever key sealed it', async ({ deps }) => {
    const rotating = createSecretBox('the-new-webhook-secret-key-0123456789abcd', [settings.serverKey]);
    const { row } = await endpointAt(deps.db);
    const gone = createSecretBox('a-key-long-gone-0123456789abcdefghijklmn').seal('whsec_gone', row.id);
    await deps.db.webhookEndpoint.update({ where: { id: row.id }, data: { previousSecretEncrypted: gone, previousSecretExpiresAt: new Date(Date.now() - 1000) } });
    const { unreadable } = await resealSecrets(deps.db, rotating);
    expect(unreadable).not.toContain(row.id);
    const after = await endpointRow(deps.db, row.id);
    expect(rotating.sealedWithCurrentKey(after.secretEncrypted, row.id)).toBe(true);
    expect(after.previousSecretEncrypted).toBe(gone);
  });
});

describe('an endpoint', () => {
  it('keeps a failure and the switch-off it calls for together: when the switch-off fails, neither is kept', async ({ deps }) => {
    const { endpoint, delivery } = await pingTo(deps.db);
    await claimAttempt(deps.db, { deliveryId: delivery.id, attempt: 1, now: new Date(), lapsedBefore: new Date(0) });
    const failure = { deliveryId: delivery.id, attempt: 1, endpointId: endpoint.id, url: endpoint.url, response: { status: 410, body: null }, error: 'The endpoint answered 410 Gone.', nextAttemptAt: null, now: new Date() };
    const cut = new Error('the connection was lost');
    await expect(recordFailure(deps.db, failure, () => { throw cut; })).rejects.toBe(cut);
    // Still claimed and unrecorded: the attempt is made again once its claim lapses.
    expect(await deliveryRow(deps.db, delivery.id)).toMatchObject({ status: 'pending', attempts: 1, nextAttemptAt: null, lastError: null });
    expect(await endpointRow(deps.db, endpoint.id)).toMatchObject({ enabled: true, consecutiveFailures: 0 });

    expect(await recordFailure(deps.db, failure, (counters) => `Gone after ${counters.consecutiveFailures} failure.`)).toMatchObject({ enabled: false, consecutiveFailures: 1 });
    expect(await deliveryRow(deps.db, delivery.id)).toMatchObject({ status: 'exhausted', lastResponseStatus: 410 });
    expect(await endpointRow(deps.db, endpoint.id)).toMatchObject({ enabled: false, disabledReason: 'Gone after 1 failure.' });
  });

  it('survives its database connection being cut in the middle of recording a failure', async ({ deps }) => {
    const { endpoint, delivery } = await pingTo(deps.db);
    await claimAttempt(deps.db, { deliveryId: delivery.id, attempt: 1, now: new Date(), lapsedBefore: new Date(0) });
    // Another transaction holds the delivery's row: the recording waits on it, its connection lent out.
    const holder = await sqlPool(deps.db).connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM webhook_deliveries WHERE id = $1 FOR UPDATE', [delivery.id]);
      const failure = { deliveryId: delivery.id, attempt: 1, endpointId: endpoint.id, url: endpoint.url, response: { status: 503, body: null }, error: 'The endpoint answered 503.', nextAttemptAt: null, now: new Date() };
      const recording = recordFailure(deps.db, failure, () => null);
      // Heard at once: it may be refused before the test awaits it, while the cut is still being answered.
      recording.catch(() => {});
      const waiting = async () => (await sqlPool(deps.db).query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%UPDATE webhook_deliveries%' AND pid <> pg_backend_pid()`,
      )).rows[0]?.pid;
      await waitFor(async () => (await waiting()) !== undefined, { what: 'the recording to wait on the row' });
      await sqlPool(deps.db).query('SELECT pg_terminate_backend($1)', [await waiting()]);
      // The failure is refused, not the process ended (an unheard 'error' event would end it).
      await expect(recording).rejects.toThrow();
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
    expect(await deliveryRow(deps.db, delivery.id)).toMatchObject({ status: 'pending', lastError: null });
  });

  it('counts nothing for an attempt to the address it has just left: the old receiver\'s 410 does not switch off the new one', async ({ deps }) => {
    const { endpoint, delivery } = await pingTo(deps.db);
    await claimAttempt(deps.db, { deliveryId: delivery.id, attempt: 1, now: new Date(), lapsedBefore: new Date(0) });
    // The url is changed while the attempt to the old one is under way.
    await deps.db.webhookEndpoint.update({ where: { id: endpoint.id }, data: { url: 'https://new.example.com/hook' } });
    const failure = { deliveryId: delivery.id, attempt: 1, endpointId: endpoint.id, url: endpoint.url, response: { status: 410, body: null }, error: 'The endpoint answered 410 Gone.', nextAttemptAt: null, now: new Date() };
    expect(await recordFailure(deps.db, failure, () => 'Gone.')).toBeNull();
    expect(await deliveryRow(deps.db, delivery.id)).toMatchObject({ status: 'exhausted', lastResponseStatus: 410 });
    expect(await endpointRow(deps.db, endpoint.id)).toMatchObject({ enabled: true, consecutiveFailures: 0, disabledReason: null });
  });

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
    const readByPatch = await endpointRow(deps.db, endpoint.id);
    await fail(61); // 4 failures over more than the hour
    expect(await endpointRow(deps.db, endpoint.id)).toMatchObject({
      enabled: false, consecutiveFailures: 4, disabledReason: 'Switched off after 4 failed attempts in a row and no success for 1 hour.',
    });

    // A PATCH that read the endpoint just before it was switched off still switches it back on.
    const reenabled = await saveEndpointChanges(deps.db, readByPatch, { enabled: true });
    expect(reenabled).toMatchObject({ enabled: true, disabledReason: null, consecutiveFailures: 0, failingSince: null });
    await fail(70);
    receiver.respondWith(() => ({ status: 204 }));
    await fail(71);
    expect(await endpointRow(deps.db, endpoint.id)).toMatchObject({ enabled: true, consecutiveFailures: 0, failingSince: null });
    // One deleted meanwhile stays off.
    await markEndpointDeleted(deps.db, endpoint.id);
    expect(await saveEndpointChanges(deps.db, readByPatch, { enabled: true })).toMatchObject({ enabled: false, disabledReason: 'Deleted.' });
  });

  it('is switched off when no attempt has succeeded for the window, however short the run of failures (DECISIONS: since the last success)', async ({ deps }) => {
    const { row: endpoint } = await endpointAt(deps.db);
    const t0 = Date.now();
    const attemptAt = async (hours: number) => {
      const delivery = await createPing(deps.db, await endpointRow(deps.db, endpoint.id), settings.appUrl);
      await attemptDelivery({ ...deps, now: () => new Date(t0 + hours * HOUR) }, { deliveryId: delivery.id, attempt: 1, retryInMs: 50 });
    };
    await attemptAt(0); // the last success
    receiver.respondWith(() => ({ status: 500 }));
    // Quiet for two days, then failing for minutes: the window is the time since that success.
    await attemptAt(48);
    await attemptAt(48.1);
    expect(await endpointRow(deps.db, endpoint.id)).toMatchObject({ enabled: true, consecutiveFailures: 2 });
    await attemptAt(48.2);
    expect(await endpointRow(deps.db, endpoint.id)).toMatchObject({
      enabled: false, consecutiveFailures: 3, disabledReason: 'Switched off after 3 failed attempts in a row and no success for 1 hour.',
    });
  });

  it('counts the window of an endpoint that never succeeded from its creation, and from its switching back on', async ({ deps }) => {
    receiver.respondWith(() => ({ status: 500 }));
    const { row: endpoint } = await endpointAt(deps.db);
    const t0 = endpoint.createdAt.getTime();
    const failAt = async (hours: number) => {
      const delivery = await createPing(deps.db, await endpointRow(deps.db, endpoint.id), settings.appUrl);
      await attemptDelivery({ ...deps, now: () => new Date(t0 + hours * HOUR) }, { deliveryId: delivery.id, attempt: 1, retryInMs: 50 });
    };
    // Its first failures come two hours after it was made: no success in all that time.
    await failAt(2);
    await failAt(2.1);
    await failAt(2.2);
    expect(await endpointRow(deps.db, endpoint.id)).toMatchObject({ enabled: false, consecutiveFailures: 3 });

    // Switched back on at hour 3, it has the whole window again: three failures within it leave it on.
    await saveEndpointChanges(deps.db, endpoint, { enabled: true }, new Date(t0 + 3 * HOUR));
    await failAt(3.1);
    await failAt(3.2);
    await failAt(3.9);
    expect(await endpointRow(deps.db, endpoint.id)).toMatchObject({ enabled: true, consecutiveFailures: 3 });
    await failAt(4);
    expect(await endpointRow(deps.db, endpoint.id)).toMatchObject({ enabled: false, consecutiveFailures: 4 });
  });

  it('signs with both secrets for the overlap after a roll, then with the new one only', async ({ deps }) => {
    const { row: endpoint, secret: old } = await endpointAt(deps.db);
    const { secret: rolled } = await rotateSecret(deps.db, box, endpoint);
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
    expect((await deliveryRow(deps.db, delivery.id)).lastError).toBe('Not delivered: localhost resolves to a loopback address, which is not a public address.');
  });

  it('re-resolves the host: a name that was public at create and now resolves inside is refused (DNS rebinding)', async ({ deps }) => {
    const { delivery } = await pingTo(deps.db, `https://hooks.example.test:${receiver.port}/hook`);
    const rebound: Resolver = async () => ['10.0.0.5'];
    await attemptDelivery({ ...deps, settings: strict, transport: { ca: receiver.ca, resolve: rebound } }, { deliveryId: delivery.id, attempt: 1, retryInMs: 50 });
    expect((await deliveryRow(deps.db, delivery.id)).lastError).toBe('Not delivered: hooks.example.test resolves to a private network address, which is not a public address.');
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

  it('judges the scheme from the parsed url: HTTPS:// and Https:// are https, and are sent', async ({ deps }) => {
    const resolve: Resolver = async () => ['93.184.215.14'];
    for (const scheme of ['HTTPS', 'Https']) {
      const { delivery } = await pingTo(deps.db, `${scheme}://hooks.example.test:${receiver.port}/hook`);
      await attemptDelivery({ ...deps, settings: { ...strict, timeoutMs: 300 }, transport: { ca: receiver.ca, resolve } }, { deliveryId: delivery.id, attempt: 1, retryInMs: 50 });
      // Sent to the public address the name resolves to (which does not answer here), not refused for its scheme.
      expect((await deliveryRow(deps.db, delivery.id)).lastError).toMatch(/^Not delivered: /);
    }
  });

  it('refuses an http url', async ({ deps }) => {
    const { delivery } = await pingTo(deps.db, `http://hooks.example.test:${receiver.port}/hook`);
    await attemptDelivery({ ...deps, settings: strict }, { deliveryId: delivery.id, attempt: 1, retryInMs: 50 });
    expect((await deliveryRow(deps.db, delivery.id)).lastError).toBe('Not sent: the url must use https.');
  });
});

describe('lastResponseBody', () => {
  it('keeps a short body as it came, a U+FFFD it holds included', () => {
    expect(storedResponseBody(Buffer.from('{"ok":true} \uFFFD'))).toBe('{"ok":true} \uFFFD');
  });

  it('holds NUL, which a PostgreSQL text column refuses, as U+FFFD', () => {
    expect(storedResponseBody(Buffer.from('a\0b\0'))).toBe('a\uFFFDb\uFFFD');
  });

  it('of a body that is not UTF-8 (Latin-1), keeps the longest decoded prefix within 4096 bytes, each bad byte as U+FFFD', () => {
    expect(storedResponseBody(Buffer.from('é'.repeat(4003), 'latin1'))).toBe('\uFFFD'.repeat(1365));
    const latin1 = Buffer.from('Délai dépassé. '.repeat(267), 'latin1').subarray(0, 4003);
    const decoded = 'D\uFFFDlai d\uFFFDpass\uFFFD. '.repeat(267);
    const kept = storedResponseBody(latin1);
    expect(decoded.startsWith(kept)).toBe(true);
    expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(4096);
    expect(Buffer.byteLength(decoded.slice(0, kept.length + 1))).toBeGreaterThan(4096);
  });

  it('cuts between characters: one straddling byte 4096 is left out, one ending on it is kept', () => {
    expect(storedResponseBody(Buffer.from(`${'a'.repeat(4095)}€ and more`))).toBe('a'.repeat(4095));
    expect(storedResponseBody(Buffer.from(`${'a'.repeat(4094)}😀`))).toBe('a'.repeat(4094));
    expect(storedResponseBody(Buffer.from(`${'a'.repeat(4093)}€ and more`))).toBe(`${'a'.repeat(4093)}€`);
    // As an attempt reads it: 3 bytes past the limit, here inside the next character.
    expect(storedResponseBody(Buffer.from(`${'a'.repeat(4093)}€€`).subarray(0, 4099))).toBe(`${'a'.repeat(4093)}€`);
    expect(storedResponseBody(Buffer.from(`${'a'.repeat(4093)}\uFFFD\uFFFD`).subarray(0, 4099))).toBe(`${'a'.repeat(4093)}\uFFFD`);
  });
});
