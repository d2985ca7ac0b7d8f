import type { Db, KeyRequestStatus } from '@vp/db';
import { createSealBox, type SealBox } from '../sealing.ts';

/** What an Update of a request's workflow did (null: the workflow has ended; the row holds its final state). */
export type KeyRequestOutcome = { applied: boolean; status: KeyRequestStatus } | null;

/** The request workflows as the domain uses them (@vp/temporal-client's keyRequestWorkflows). */
export type KeyRequestFlows = {
  start(requestId: string): Promise<void>;
  approve(requestId: string, accountId: string): Promise<KeyRequestOutcome>;
  deny(requestId: string, accountId: string): Promise<KeyRequestOutcome>;
  claim(requestId: string): Promise<KeyRequestOutcome>;
  revokeClaimed(requestId: string): Promise<KeyRequestOutcome>;
};

export type KeyRequestDeps = {
  db: Db;
  workflows: KeyRequestFlows;
  /** Seals an approved key until its claim (see `keyRequestBox`). */
  box: SealBox;
  appUrl: string;
  /** How long a request waits for its answer (KEY_REQUEST_TTL_MS). */
  pendingMs: number;
};

/**
 * A device-flow key at rest, from its approval until its claim: AES-256-GCM under a key derived
 * from the server key (WEBHOOK_SECRET_KEY, as endpoint secrets are, for a purpose of its own),
 * bound to the request's id.
 */
export function keyRequestBox(secrets: { webhookKey: string; previousWebhookKey: string | null }): SealBox {
  return createSealBox('device-flow-key', secrets.webhookKey, secrets.previousWebhookKey ? [secrets.previousWebhookKey] : []);
}

/** Spec: "poll every `pollIntervalSeconds` (3)". */
export const POLL_INTERVAL_SECONDS = 3;
