import { ATTEMPT_MARGIN_MS, RESPONSE_BODY_LIMIT_BYTES } from '@vp/contracts';
import type { Db } from '@vp/db';
import { FetchError, fetchPublic, type Resolver } from '@vp/net';
import { claimAttempt, endDelivery, noteHeld, noteUnsent, recordFailure, recordSuccess, type AttemptEndpoint } from './attempt-store.ts';
import { signingSecrets } from './endpoints.ts';
import { deliveryBody } from './payload.ts';
import { describeDuration, shouldSwitchOff } from './schedule.ts';
import type { SecretBox } from './secret.ts';
import type { WebhookSettings } from './settings.ts';
import { signedHeaders } from './signing.ts';
import { usesAllowedScheme } from './url.ts';

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
/**
 * `done`: the delivery succeeded or is exhausted; `held`: nothing was sent, webhooks being switched
 * off on the server, and the same attempt is to be made later; otherwise the next attempt follows
 * after `retryInMs`.
 */
export type AttemptResult = { done: boolean; held?: boolean };

type Outcome =
  | { ok: true; status: number; body: string }
  | { ok: false; status: number | null; body: string | null; error: string; gone?: boolean };

/**
 * Makes one attempt of a delivery and records it: the delivery's fields and the endpoint's
 * counters. Each attempt number is claimed in the database before anything is sent, so a
 * second worker never sends it while it is under way, and a finished delivery is never sent
 * again. An attempt whose outcome was never recorded (the database failed after the send) is
 * made again once its claim lapses: the event id is the same, so the receiver can dedupe it.
 */
export async function attemptDelivery(deps: AttemptDeps, input: AttemptInput): Promise<AttemptResult> {
  const { db, settings } = deps;
  if (!settings.enabled) {
    // Switched off on this server: nothing goes out. The attempt is held, not spent: the workflow
    // makes it once webhooks are back on.
    const pending = await noteHeld(db, input.deliveryId, 'Not sent yet: webhooks are switched off on this server. It is sent once they are back on.');
    return pending ? { done: false, held: true } : { done: true };
  }
  const now = deps.now?.() ?? new Date();
  const lapsedBefore = new Date(now.getTime() - (settings.timeoutMs + ATTEMPT_MARGIN_MS));
  const claimed = await claimAttempt(db, { deliveryId: input.deliveryId, attempt: input.attempt, now, lapsedBefore });
  if (!claimed) return notClaimed(db, input);
  const { event, endpoint } = claimed;
  const body = deliveryBody(event, endpoint.id, settings);
  let secrets: string[];
  try {
    secrets = signingSecrets(deps.box, endpoint, now);
  } catch (error) {
    // Our side, not the endpoint's (WEBHOOK_SECRET_KEY changed without WEBHOOK_SECRET_KEY_PREVIOUS):
    // said on the delivery, not counted against the endpoint, the detail in the worker's log. The
    // attempt stays claimed and is made again once the claim lapses, as after any failure of ours.
    const reason = 'Not sent yet: this server cannot read the endpoint\'s signing secret. It is tried again.';
    await noteUnsent(db, { deliveryId: input.deliveryId, attempt: input.attempt, reason }).catch(() => {});
    throw error;
  }
  const headers = signedHeaders({ secrets, eventId: event.id, type: event.type, body, now });
  const outcome = await send(deps, endpoint, headers, body);

  const at = deps.now?.() ?? new Date();
  const response = { status: outcome.status, body: outcome.body };
  if (outcome.ok) {
    await recordSuccess(db, { deliveryId: input.deliveryId, attempt: input.attempt, endpointId: endpoint.id, url: endpoint.url, response, now: at });
    return { done: true };
  }
  const last = input.retryInMs === null || outcome.gone === true;
  await recordFailure(db, {
    deliveryId: input.deliveryId, attempt: input.attempt, endpointId: endpoint.id, url: endpoint.url, response, error: outcome.error, now: at,
    nextAttemptAt: last ? null : new Date(at.getTime() + input.retryInMs!),
  }, (counters) => {
    if (outcome.gone) return outcome.error;
    if (!shouldSwitchOff(settings, counters, at)) return null;
    return `Switched off after ${counters.consecutiveFailures} failed attempts in a row and no success for ${describeDuration(settings.disableAfterMs)}.`;
  });
  return { done: last };
}

// Three bytes past the limit: a character the read cuts in two then starts past the limit and is left out.
const READ_BYTES = RESPONSE_BODY_LIMIT_BYTES + 3;

async function send(deps: AttemptDeps, endpoint: AttemptEndpoint, headers: Record<string, string>, body: string): Promise<Outcome> {
  const { settings, transport } = deps;
  // Checked at create too; the setting may have changed since.
  if (!usesAllowedScheme(endpoint.url, settings.allowPrivateUrls)) {
    return { ok: false, status: null, body: null, error: 'Not sent: the url must use https.' };
  }
  try {
    const response = await fetchPublic(endpoint.url, {
      method: 'POST', headers, body,
      timeoutMs: settings.timeoutMs,
      maxBytes: READ_BYTES,
      onTooLarge: 'truncate',
      // Any 2xx acknowledges: a body that does not end in time takes nothing from the status.
      keepPartialBody: true,
      allowPrivate: settings.allowPrivateUrls,
      ca: transport?.ca,
      resolve: transport?.resolve,
    });
    const text = storedResponseBody(response.body);
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
 * Why an attempt could not be claimed: the delivery finished, the attempt was made and
 * recorded before (a retried activity: it is not sent again), or the endpoint is off (the
 * delivery ends). An attempt claimed but not recorded is under way, or its outcome was lost:
 * the activity fails, and its retry makes the attempt again once the claim lapses.
 */
async function notClaimed(db: Db, input: AttemptInput): Promise<AttemptResult> {
  const row = await db.webhookDelivery.findUnique({ where: { id: input.deliveryId }, include: { endpoint: true } });
  if (!row || row.status !== 'pending') return { done: true };
  // A recorded failure that is not the last has its next attempt scheduled.
  const recorded = row.attempts > input.attempt || (row.attempts === input.attempt && row.nextAttemptAt !== null);
  if (recorded) return { done: false };
  const { endpoint } = row;
  if (endpoint.deletedAt || !endpoint.enabled) {
    const why = `the endpoint was ${endpoint.deletedAt ? 'deleted' : 'switched off'}`;
    await endDelivery(db, input.deliveryId, row.attempts < input.attempt ? `Not sent: ${why}.` : `No answer recorded: ${why}.`);
    return { done: true };
  }
  if (row.attempts < input.attempt) throw new Error(`Delivery ${input.deliveryId} is at attempt ${row.attempts}, not ready for ${input.attempt}`);
  throw new Error(`Attempt ${input.attempt} of delivery ${input.deliveryId} is under way or its outcome was not recorded; it is made again once its claim lapses`);
}

/**
 * An answer's body as `lastResponseBody` keeps it: decoded as UTF-8 (a byte that is not
 * becomes U+FFFD), NUL replaced by U+FFFD (a PostgreSQL text column refuses it), and the
 * longest prefix that fits in 4 KiB of UTF-8. `bytes` is the whole body or at least its
 * first 4 KiB + 3 bytes: a character cut at the end of the read then falls past the limit.
 */
export function storedResponseBody(bytes: Buffer): string {
  return utf8Within(bytes.toString('utf8').replaceAll('\0', '\uFFFD'), RESPONSE_BODY_LIMIT_BYTES);
}

/** The longest prefix of `text` whose UTF-8 takes at most `limit` bytes, cut between characters. */
function utf8Within(text: string, limit: number): string {
  let size = 0;
  let end = 0;
  for (const char of text) {
    size += Buffer.byteLength(char);
    if (size > limit) break;
    end += char.length;
  }
  return text.slice(0, end);
}
