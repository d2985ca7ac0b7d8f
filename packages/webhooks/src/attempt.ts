import { RESPONSE_BODY_LIMIT_BYTES } from '@vp/contracts';
import type { Db } from '@vp/db';
import { FetchError, fetchPublic, type Resolver } from '@vp/net';
import { claimAttempt, recordFailure, recordSuccess, switchOff, type AttemptEndpoint } from './attempt-store.ts';
import { signingSecrets } from './endpoints.ts';
import { deliveryBody } from './payload.ts';
import { describeDuration, shouldSwitchOff } from './schedule.ts';
import type { SecretBox } from './secret.ts';
import type { WebhookSettings } from './settings.ts';
import { signedHeaders } from './signing.ts';

export type AttemptDeps = {
  db: Db;
  settings: WebhookSettings;
  box: SecretBox;
  /** Tests only: trust a self-signed receiver, resolve names a scripted way. */
  transport?: { ca?: string | Buffer; resolve?: Resolver };
  now?: () => Date;
};

/** Attempt `attempt` (1-based) of a delivery; `retryInMs` is the wait before the next, null on the last. */
export type AttemptInput = { deliveryId: string; attempt: number; retryInMs: number | null };
/** `done`: the delivery succeeded or is exhausted; otherwise the next attempt follows after `retryInMs`. */
export type AttemptResult = { done: boolean };

type Outcome =
  | { ok: true; status: number; body: string }
  | { ok: false; status: number | null; body: string | null; error: string; gone?: boolean };

/**
 * Makes one attempt of a delivery and records it: the delivery's fields and the endpoint's
 * counters. Each attempt number is claimed once in the database before anything is sent, so
 * a retried activity or a second worker never sends it twice, and a finished delivery is
 * never sent again.
 */
export async function attemptDelivery(deps: AttemptDeps, input: AttemptInput): Promise<AttemptResult> {
  const { db, settings } = deps;
  const now = deps.now?.() ?? new Date();
  const claimed = await claimAttempt(db, input.deliveryId, input.attempt, now);
  if (!claimed) return notClaimed(db, input);
  const { event, endpoint } = claimed;
  const body = deliveryBody(event, endpoint.id, settings);
  const headers = signedHeaders({ secrets: signingSecrets(deps.box, endpoint, now), eventId: event.id, type: event.type, body, now });
  const outcome = await send(deps, endpoint, headers, body);

  const at = deps.now?.() ?? new Date();
  const response = { status: outcome.status, body: outcome.body };
  if (outcome.ok) {
    await recordSuccess(db, { deliveryId: input.deliveryId, endpointId: endpoint.id, response, now: at });
    return { done: true };
  }
  const last = input.retryInMs === null || outcome.gone === true;
  const counters = await recordFailure(db, {
    deliveryId: input.deliveryId, endpointId: endpoint.id, response, error: outcome.error, now: at,
    nextAttemptAt: last ? null : new Date(at.getTime() + input.retryInMs!),
  });
  if (counters.enabled) {
    const reason = outcome.gone
      ? outcome.error
      : shouldSwitchOff(settings, counters, at)
        ? `Switched off after ${counters.consecutiveFailures} failed attempts in a row and no success for ${describeDuration(settings.disableAfterMs)}.`
        : null;
    if (reason) await switchOff(db, endpoint.id, reason);
  }
  return { done: last };
}

async function send(deps: AttemptDeps, endpoint: AttemptEndpoint, headers: Record<string, string>, body: string): Promise<Outcome> {
  const { settings, transport } = deps;
  if (!settings.allowPrivateUrls && !endpoint.url.startsWith('https:')) {
    return { ok: false, status: null, body: null, error: 'Not sent: the url must use https.' };
  }
  try {
    const response = await fetchPublic(endpoint.url, {
      method: 'POST', headers, body,
      timeoutMs: settings.timeoutMs,
      maxBytes: RESPONSE_BODY_LIMIT_BYTES,
      onTooLarge: 'truncate',
      allowPrivate: settings.allowPrivateUrls,
      ca: transport?.ca,
      resolve: transport?.resolve,
    });
    const text = utf8Within(response.body, RESPONSE_BODY_LIMIT_BYTES);
    const status = response.status;
    if (status >= 200 && status < 300) return { ok: true, status, body: text };
    if (status === 410) return { ok: false, status, body: text, error: 'The endpoint answered 410 Gone.', gone: true };
    if (status >= 300 && status < 400) return { ok: false, status, body: text, error: `The endpoint answered ${status}; redirects are not followed.` };
    return { ok: false, status, body: text, error: `The endpoint answered ${status}.` };
  } catch (error) {
    if (error instanceof FetchError) return { ok: false, status: null, body: null, error: `Not delivered: ${error.message}.` };
    throw error;
  }
}

/**
 * Why an attempt could not be claimed: the delivery finished, the attempt was made before
 * (a retried activity: it is not sent again), or the endpoint is off (the delivery ends).
 */
async function notClaimed(db: Db, input: AttemptInput): Promise<AttemptResult> {
  const row = await db.webhookDelivery.findUnique({ where: { id: input.deliveryId }, include: { endpoint: true } });
  if (!row || row.status !== 'pending') return { done: true };
  if (row.attempts < input.attempt) {
    const { endpoint } = row;
    if (endpoint.deletedAt || !endpoint.enabled) {
      await finish(db, input.deliveryId, `Not sent: the endpoint was ${endpoint.deletedAt ? 'deleted' : 'switched off'}.`);
      return { done: true };
    }
    throw new Error(`Delivery ${input.deliveryId} is at attempt ${row.attempts}, not ready for ${input.attempt}`);
  }
  return alreadyAttempted(db, input);
}

/** The attempt was claimed before (a retried activity): it is not sent again. */
async function alreadyAttempted(db: Db, input: AttemptInput): Promise<AttemptResult> {
  if (input.retryInMs === null) {
    await finish(db, input.deliveryId, null);
    return { done: true };
  }
  return { done: false };
}

/** Ends a delivery without another attempt. */
async function finish(db: Db, deliveryId: string, reason: string | null) {
  await db.webhookDelivery.update({
    where: { id: deliveryId },
    data: { status: 'exhausted', nextAttemptAt: null, ...(reason ? { lastError: reason } : {}) },
  });
}

/** At most `limit` bytes of UTF-8, never ending in a cut character. */
export function utf8Within(bytes: Buffer, limit: number): string {
  let text = bytes.subarray(0, limit).toString('utf8');
  while (Buffer.byteLength(text) > limit || text.endsWith('\uFFFD')) text = text.slice(0, -1);
  return text;
}
