import { sqlPool, type Db } from '@vp/db';
import type { EventRecord, StoredEventData } from './payload.ts';

/** What an attempt needs of its endpoint. */
export type AttemptEndpoint = {
  id: string;
  url: string;
  secretEncrypted: string;
  previousSecretEncrypted: string | null;
  previousSecretExpiresAt: Date | null;
};

// The hot path of every delivery, in two statements straight through pg: one to claim the
// attempt and load what it sends, one to record the outcome with the endpoint's counters.

/**
 * Claims attempt `attempt` of a pending delivery to an enabled endpoint (attempts n-1 -> n,
 * no next attempt scheduled while it is under way) and returns its event and endpoint. An
 * attempt claimed before `lapsedBefore` whose outcome was never recorded (still no next
 * attempt) is claimed again. Null when it cannot be claimed (finished, under way or recorded
 * already, or the endpoint is off).
 */
export async function claimAttempt(
  db: Db,
  input: { deliveryId: string; attempt: number; now: Date; lapsedBefore: Date },
): Promise<{ event: EventRecord; endpoint: AttemptEndpoint } | null> {
  const { rows } = await sqlPool(db).query<EventRecord & AttemptEndpoint & { endpointId: string }>(
    `WITH claimed AS (
       UPDATE webhook_deliveries d SET attempts = $2, last_attempt_at = $3, next_attempt_at = NULL
       FROM webhook_endpoints e
       WHERE d.id = $1 AND d.status = 'pending'
         AND (d.attempts = $2 - 1 OR (d.attempts = $2 AND d.next_attempt_at IS NULL AND d.last_attempt_at < $4))
         AND e.id = d.endpoint_id AND e.enabled AND e.deleted_at IS NULL
       RETURNING d.event_id, d.endpoint_id
     )
     SELECT ev.id, ev.type, ev.workspace_id AS "workspaceId", ev.redelivery_of AS "redeliveryOf", ev.data, ev.created_at AS "createdAt",
            e.id AS "endpointId", e.url, e.secret_encrypted AS "secretEncrypted",
            e.previous_secret_encrypted AS "previousSecretEncrypted", e.previous_secret_expires_at AS "previousSecretExpiresAt"
     FROM claimed JOIN webhook_events ev ON ev.id = claimed.event_id JOIN webhook_endpoints e ON e.id = claimed.endpoint_id`,
    [input.deliveryId, input.attempt, input.now, input.lapsedBefore],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    event: { id: row.id, type: row.type, workspaceId: row.workspaceId, redeliveryOf: row.redeliveryOf, data: row.data as StoredEventData, createdAt: row.createdAt },
    endpoint: {
      id: row.endpointId, url: row.url, secretEncrypted: row.secretEncrypted,
      previousSecretEncrypted: row.previousSecretEncrypted, previousSecretExpiresAt: row.previousSecretExpiresAt,
    },
  };
}

type Response = { status: number | null; body: string | null };

// An outcome is written only onto the attempt it belongs to, while the delivery is pending: a
// duplicate run of an attempt (a worker cut off from Temporal, a timed-out local activity) may
// record late, after another run ended the delivery, and an ended delivery never moves again.
// The endpoint's counters take every attempt made to its address: each was a real request to it.
// An attempt sent to an address the endpoint has since left (a PATCH of its url while it was
// under way) counts for nothing there: neither its failure nor a 410 from the old receiver.

/** A 2xx: the delivery succeeded; the endpoint's run of failures ends. */
export async function recordSuccess(
  db: Db, input: { deliveryId: string; attempt: number; endpointId: string; url: string; response: Response; now: Date },
): Promise<void> {
  await sqlPool(db).query(
    `WITH delivered AS (
       UPDATE webhook_deliveries SET status = 'succeeded', delivered_at = $3, next_attempt_at = NULL,
         last_response_status = $4, last_response_body = $5, last_error = NULL
       WHERE id = $1 AND status = 'pending' AND attempts = $6
     )
     UPDATE webhook_endpoints SET consecutive_failures = 0, failing_since = NULL, last_attempt_at = $3, last_success_at = $3 WHERE id = $2 AND url = $7`,
    [input.deliveryId, input.endpointId, input.now, input.response.status, input.response.body, input.attempt, input.url],
  );
}

/** The failures in a row, and since when no attempt has succeeded (the last success, or the endpoint's (re-)enabling). */
export type FailureCounters = { consecutiveFailures: number; quietSince: Date };

/**
 * A failed attempt: recorded on the delivery (`nextAttemptAt` null when it was the last),
 * counted on the endpoint, and the endpoint switched off when `switchOffReason` gives a reason
 * for the counters as they now stand, all in one transaction: a switch-off is never lost
 * after the failure that called for it was kept. Answers the counters and whether the
 * endpoint is still on; null when its url changed since the attempt was claimed (nothing counted).
 */
export async function recordFailure(
  db: Db,
  input: { deliveryId: string; attempt: number; endpointId: string; url: string; response: Response; error: string; nextAttemptAt: Date | null; now: Date },
  switchOffReason: (counters: FailureCounters) => string | null,
): Promise<(FailureCounters & { enabled: boolean }) | null> {
  const client = await sqlPool(db).connect();
  // The pool stops listening to a client it has lent: a connection lost meanwhile is reported to
  // the query and also as an 'error' event, which, unheard, would end the process.
  const lost = () => {};
  client.on('error', lost);
  let broken = false;
  try {
    await client.query('BEGIN');
    // The endpoint's row stays locked until the commit: no success can end the run meanwhile.
    const { rows: [counters] } = await client.query<FailureCounters & { enabled: boolean }>(FAILURE, [
      input.deliveryId, input.endpointId, input.now, input.response.status, input.response.body, input.nextAttemptAt, input.error, input.attempt, input.url,
    ]);
    const reason = counters?.enabled ? switchOffReason(counters) : null;
    if (reason) await client.query('UPDATE webhook_endpoints SET enabled = false, disabled_reason = $2, updated_at = now() WHERE id = $1', [input.endpointId, reason]);
    await client.query('COMMIT');
    return counters ? { ...counters, enabled: counters.enabled && !reason } : null;
  } catch (error) {
    // A connection whose rollback failed is closed, not put back in the pool.
    broken = !(await client.query('ROLLBACK').then(() => true, () => false));
    throw error;
  } finally {
    client.off('error', lost);
    client.release(broken);
  }
}

const FAILURE = `WITH failed AS (
       UPDATE webhook_deliveries SET status = CASE WHEN $6::timestamptz IS NULL THEN 'exhausted'::webhook_delivery_status ELSE 'pending' END,
         next_attempt_at = $6, last_response_status = $4, last_response_body = $5, last_error = $7
       WHERE id = $1 AND status = 'pending' AND attempts = $8
     )
     UPDATE webhook_endpoints SET consecutive_failures = consecutive_failures + 1, failing_since = COALESCE(failing_since, $3), last_attempt_at = $3
     WHERE id = $2 AND url = $9
     RETURNING consecutive_failures AS "consecutiveFailures", GREATEST(last_success_at, enabled_at) AS "quietSince", enabled`;

/** Says on a claimed attempt why it was not sent, leaving it to be made again. */
export async function noteUnsent(db: Db, input: { deliveryId: string; attempt: number; reason: string }): Promise<void> {
  await sqlPool(db).query(
    `UPDATE webhook_deliveries SET last_error = $3 WHERE id = $1 AND status = 'pending' AND attempts = $2 AND next_attempt_at IS NULL`,
    [input.deliveryId, input.attempt, input.reason],
  );
}

/**
 * Says why a pending delivery is waiting, without claiming or spending an attempt (written once,
 * not at each check). False when it is pending no longer (ended, or gone with the delivery log).
 */
export async function noteHeld(db: Db, deliveryId: string, reason: string): Promise<boolean> {
  const { rows } = await sqlPool(db).query<{ pending: boolean }>(
    `WITH noted AS (
       UPDATE webhook_deliveries SET last_error = $2 WHERE id = $1 AND status = 'pending' AND last_error IS DISTINCT FROM $2
     )
     SELECT EXISTS (SELECT 1 FROM webhook_deliveries WHERE id = $1 AND status = 'pending') AS pending`,
    [deliveryId, reason],
  );
  return rows[0]?.pending === true;
}

/** Ends a pending delivery without another attempt. */
export async function endDelivery(db: Db, deliveryId: string, reason: string): Promise<void> {
  await sqlPool(db).query(
    `UPDATE webhook_deliveries SET status = 'exhausted', next_attempt_at = NULL, last_error = $2 WHERE id = $1 AND status = 'pending'`,
    [deliveryId, reason],
  );
}


