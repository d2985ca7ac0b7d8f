import { defineQuery, defineUpdate, type RetryPolicy } from '@temporalio/workflow';

/** The spec's "Device key request" states. */
export type KeyRequestStatus = 'pending' | 'approved' | 'claimed' | 'denied' | 'expired';

/** One request's workflow: its id, and the timers of the spec's table (configuration, so tests run them in seconds). */
export type KeyRequestInput = {
  requestId: string;
  /** A pending request expires after this (KEY_REQUEST_TTL_MS). */
  pendingMs: number;
  /** An approved key not claimed within this of its approval expires, revoked (KEY_CLAIM_WINDOW_MS). */
  claimWindowMs: number;
  /** A claimed key may be revoked by its poller until this long after the claim window ends (KEY_REVOKE_GRACE_MS). */
  revokeGraceMs: number;
  /** How long one database step may take before it is retried. */
  stepTimeoutMs: number;
};

/**
 * What an Update did: `applied` when it moved the request, and the state it leaves. An Update
 * that finds the request elsewhere (already answered, claimed, expired) changes nothing and says
 * where it is, which is the caller's answer.
 */
export type KeyRequestOutcome = { applied: boolean; status: KeyRequestStatus };

/** Who answers: the account signed in to the app; the key acts as it. */
export type AnswerArgs = { accountId: string };

export const approveKeyRequestUpdate = defineUpdate<KeyRequestOutcome, [AnswerArgs]>('approve');
export const denyKeyRequestUpdate = defineUpdate<KeyRequestOutcome, [AnswerArgs]>('deny');
/** A poll after approval: the first one claims the key (and only it then takes the sealed key from the database). */
export const claimKeyRequestUpdate = defineUpdate<KeyRequestOutcome, []>('claim');
/** A poll with `revokeClaimed: true` while the claimed key may still be revoked. */
export const revokeClaimedKeyUpdate = defineUpdate<KeyRequestOutcome, []>('revokeClaimed');
export const keyRequestStatusQuery = defineQuery<KeyRequestStatus>('status');

/**
 * The database steps of a request's workflow (implemented in @vp/activities over @vp/accounts).
 * Ids in, ids and outcomes out: the key and the device code never pass through here.
 * Each is idempotent: a retried step finds its work done.
 */
export interface KeyRequestSteps {
  /** pending → approved: makes the key (all four scopes, acting as the account) and seals it at rest. */
  approveKeyRequest(input: { requestId: string; accountId: string }): Promise<void>;
  /** pending → denied. */
  denyKeyRequest(input: { requestId: string; accountId: string }): Promise<void>;
  /** approved → claimed: the poller that asked then takes the sealed key, which is wiped as it is taken. */
  claimKeyRequest(input: { requestId: string }): Promise<void>;
  /** pending or approved → expired; an approved key is revoked and its sealed plaintext cleared. */
  expireKeyRequest(input: { requestId: string }): Promise<void>;
  /** claimed → expired: the claimed key is revoked. */
  revokeClaimedKey(input: { requestId: string }): Promise<void>;
  /** The request's end: whatever of the key is still sealed (a claim whose poller never took it) is wiped. */
  wipeSealedKey(input: { requestId: string }): Promise<void>;
}

/** A step is a short transaction; our database away is the only failure, so it is retried until it passes. */
export const KEY_STEP_RETRY: RetryPolicy = { initialInterval: '1 second', maximumInterval: '10 seconds' };
