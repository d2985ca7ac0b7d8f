import { randomUUID } from 'node:crypto';
import {
  DEFAULT_EVENT_TYPES, DomainError, SECRET_OVERLAP_MS, WEBHOOK_ENDPOINT_LIMIT,
  type SubscribableEventType, type WebhookEndpoint,
} from '@vp/contracts';
import { keyset, lockFor, type Db, type WebhookEndpoint as EndpointRow } from '@vp/db';
import { generateSecret, type SecretBox } from './secret.ts';

export function toEndpoint(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    url: row.url,
    description: row.description,
    events: row.events as SubscribableEventType[],
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    consecutiveFailures: row.consecutiveFailures,
    lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
    lastSuccessAt: row.lastSuccessAt?.toISOString() ?? null,
    previousSecretExpiresAt: row.previousSecretExpiresAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Creates an endpoint with a new secret (returned once). 409 `limit` past 10 per workspace, also under concurrency. */
export async function insertEndpoint(
  db: Db,
  box: SecretBox,
  input: { workspaceId: string; url: string; description?: string | null; events?: SubscribableEventType[] },
): Promise<{ row: EndpointRow; secret: string }> {
  const id = randomUUID();
  const secret = generateSecret();
  const row = await db.$transaction(async (tx) => {
    await lockFor(tx, `webhook-endpoints:${input.workspaceId}`);
    const count = await tx.webhookEndpoint.count({ where: { workspaceId: input.workspaceId, deletedAt: null } });
    if (count >= WEBHOOK_ENDPOINT_LIMIT) {
      throw new DomainError('limit', `A workspace may have ${WEBHOOK_ENDPOINT_LIMIT} webhook endpoints; delete one first.`);
    }
    return tx.webhookEndpoint.create({
      data: {
        id,
        workspaceId: input.workspaceId,
        url: input.url,
        description: input.description ?? null,
        events: input.events ?? [...DEFAULT_EVENT_TYPES],
        secretEncrypted: box.seal(secret, id),
      },
    });
  });
  return { row, secret };
}

/** A workspace's endpoints, newest first (ties by id), as every list (DECISIONS: Lists). */
export async function queryEndpoints(db: Db, workspaceId: string, page: { limit: number; cursor?: string }) {
  const rows = await db.webhookEndpoint.findMany({
    where: { workspaceId, deletedAt: null, ...keyset.after(keyset.startOf(page.cursor)) },
    orderBy: keyset.newestFirst,
    take: page.limit + 1,
  });
  return keyset.toPage(rows, page.limit);
}

/** An endpoint that exists and was not deleted. */
export function findEndpoint(db: Db, id: string) {
  return db.webhookEndpoint.findFirst({ where: { id, deletedAt: null } });
}

/**
 * Applies a PATCH. Switching an endpoint back on resets its failure count and starts its
 * switch-off window again (at `now`); switching it off by hand records why. Both are decided on
 * the row as it is under its lock, not as the caller read it: a delivery may have switched it off
 * in between.
 */
export function saveEndpointChanges(
  db: Db,
  row: Pick<EndpointRow, 'id'>,
  patch: { url?: string; description?: string | null; events?: SubscribableEventType[]; enabled?: boolean },
  now = new Date(),
) {
  return db.$transaction(async (tx) => {
    const [current] = await tx.$queryRaw<{ enabled: boolean; deleted: boolean }[]>`
      SELECT enabled, deleted_at IS NOT NULL AS deleted FROM webhook_endpoints WHERE id = ${row.id}::uuid FOR UPDATE`;
    // A deleted endpoint stays off, whatever a PATCH that raced its DELETE asks.
    const reenabled = patch.enabled === true && current?.enabled === false && !current.deleted;
    const disabled = patch.enabled === false && current?.enabled === true;
    return tx.webhookEndpoint.update({
      where: { id: row.id },
      data: {
        ...(patch.url !== undefined ? { url: patch.url } : {}),
        ...(patch.description !== undefined ? { description: patch.description } : {}),
        ...(patch.events !== undefined ? { events: patch.events } : {}),
        ...(reenabled ? { enabled: true, enabledAt: now, disabledReason: null, consecutiveFailures: 0, failingSince: null } : {}),
        ...(disabled ? { enabled: false, disabledReason: 'Switched off through the API.' } : {}),
      },
    });
  });
}

/** Soft delete: nothing more is sent, and links minted for it answer 403 `revoked`. */
export function markEndpointDeleted(db: Db, id: string, now = new Date()) {
  return db.webhookEndpoint.update({ where: { id }, data: { deletedAt: now, enabled: false, disabledReason: 'Deleted.' } });
}

/** A new secret; the current one becomes the previous and keeps signing for 24 hours. */
export async function rotateSecret(db: Db, box: SecretBox, row: EndpointRow, now = new Date()): Promise<{ row: EndpointRow; secret: string }> {
  const secret = generateSecret();
  const updated = await db.$transaction(async (tx) => {
    // Two rolls at once: the second sees the first's secret as the previous one.
    const [current] = await tx.$queryRaw<{ secret_encrypted: string }[]>`
      SELECT secret_encrypted FROM webhook_endpoints WHERE id = ${row.id}::uuid FOR UPDATE`;
    return tx.webhookEndpoint.update({
      where: { id: row.id },
      data: {
        secretEncrypted: box.seal(secret, row.id),
        previousSecretEncrypted: current?.secret_encrypted ?? row.secretEncrypted,
        previousSecretExpiresAt: new Date(now.getTime() + SECRET_OVERLAP_MS),
      },
    });
  });
  return { row: updated, secret };
}

type SealedSecrets = Pick<EndpointRow, 'id' | 'secretEncrypted' | 'previousSecretEncrypted' | 'previousSecretExpiresAt'>;

/** The secrets that sign now: the current one, and the previous one during its overlap. */
export function signingSecrets(box: SecretBox, row: SealedSecrets, now = new Date()): string[] {
  const { secretEncrypted, previousSecretEncrypted } = sealedSigning(row, now);
  return [secretEncrypted, ...(previousSecretEncrypted ? [previousSecretEncrypted] : [])].map((sealed) => box.open(sealed, row.id));
}

/** The sealed forms of the secrets that sign now; the previous one is null past its overlap. */
function sealedSigning(row: SealedSecrets, now: Date): { secretEncrypted: string; previousSecretEncrypted: string | null } {
  const overlapping = row.previousSecretExpiresAt !== null && row.previousSecretExpiresAt > now;
  return { secretEncrypted: row.secretEncrypted, previousSecretEncrypted: overlapping ? row.previousSecretEncrypted : null };
}

/**
 * Seals every endpoint's secrets with the current server key. After WEBHOOK_SECRET_KEY changes
 * (the old one kept as WEBHOOK_SECRET_KEY_PREVIOUS, so that both open), run this, then drop the
 * previous key. A secret that neither key opens is left, and named. A previous secret past its
 * overlap signs nothing and is left alone. An endpoint whose secret is rolled meanwhile is gone
 * over again, until a pass finds nothing changed under it; one still changing after five passes
 * is named as `unsettled`.
 */
export async function resealSecrets(db: Db, box: SecretBox, now = new Date()): Promise<{ resealed: number; unreadable: string[]; unsettled: string[] }> {
  const resealed = new Set<string>();
  const unreadable = new Set<string>();
  let unsettled: string[] = [];
  for (let pass = 1; pass <= 5; pass++) {
    const rows = await db.webhookEndpoint.findMany({
      select: { id: true, secretEncrypted: true, previousSecretEncrypted: true, previousSecretExpiresAt: true }, orderBy: { id: 'asc' },
    });
    unsettled = [];
    for (const row of rows) {
      const data: { secretEncrypted?: string; previousSecretEncrypted?: string } = {};
      for (const [field, sealed] of Object.entries(sealedSigning(row, now)) as [keyof typeof data, string | null][]) {
        if (!sealed || box.sealedWithCurrentKey(sealed, row.id)) continue;
        try {
          data[field] = box.seal(box.open(sealed, row.id), row.id);
        } catch {
          unreadable.add(row.id);
        }
      }
      if (!Object.keys(data).length) continue;
      const { count } = await db.webhookEndpoint.updateMany({
        where: { id: row.id, secretEncrypted: row.secretEncrypted, previousSecretEncrypted: row.previousSecretEncrypted },
        data,
      });
      if (count) resealed.add(row.id);
      else unsettled.push(row.id);
    }
    if (!unsettled.length) break;
  }
  return { resealed: resealed.size, unreadable: [...unreadable], unsettled };
}
