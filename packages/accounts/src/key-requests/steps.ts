import { SCOPES } from '@vp/contracts';
import { lockFor, type Db } from '@vp/db';
import { createApiKey, revokeApiKey } from '../keys.ts';
import type { SealBox } from '../sealing.ts';

/**
 * The database steps of a request's workflow, which alone moves a request (ARCHITECTURE rule 1).
 * Each is one transaction and idempotent: a step retried after its commit finds its work done.
 */
export type KeyRequestStepDeps = { db: Db; box: SealBox };

/** pending → approved: the key (all four scopes, acting as the approving account, named after the request), sealed until its claim. */
export async function recordKeyApproval(deps: KeyRequestStepDeps, input: { requestId: string; accountId: string }): Promise<void> {
  await deps.db.$transaction(async (tx) => {
    await lockFor(tx, `key-request:${input.requestId}`);
    const row = await tx.keyRequest.findUniqueOrThrow({ where: { id: input.requestId } });
    if (row.keyId || row.status !== 'pending') return;
    const key = await createApiKey(tx, { accountId: input.accountId, name: row.name, scopes: SCOPES, madeBy: 'device' });
    await tx.keyRequest.update({
      where: { id: row.id },
      data: { status: 'approved', answeredBy: input.accountId, answeredAt: new Date(), liveUserCode: null, keyId: key.id, keySealed: deps.box.seal(key.apiKey, row.id) },
    });
  });
}

/** pending → denied. */
export async function recordKeyDenial(deps: KeyRequestStepDeps, input: { requestId: string; accountId: string }): Promise<void> {
  await deps.db.keyRequest.updateMany({
    where: { id: input.requestId, status: 'pending' },
    data: { status: 'denied', answeredBy: input.accountId, answeredAt: new Date(), liveUserCode: null },
  });
}

/** approved → claimed. The poller granted the claim takes the sealed key next (`pollKeyRequest`). */
export async function recordKeyClaim(deps: KeyRequestStepDeps, input: { requestId: string }): Promise<void> {
  await deps.db.keyRequest.updateMany({ where: { id: input.requestId, status: 'approved' }, data: { status: 'claimed', claimedAt: new Date() } });
}

/** pending or approved → expired; an approved key is revoked and its sealed plaintext cleared. */
export async function recordKeyExpiry(deps: KeyRequestStepDeps, input: { requestId: string }): Promise<void> {
  await endWithKeyRevoked(deps, input.requestId, ['pending', 'approved']);
}

/** claimed → expired: the claimed key is revoked (its poller asked, within the grace). */
export async function revokeClaimedDeviceKey(deps: KeyRequestStepDeps, input: { requestId: string }): Promise<void> {
  await endWithKeyRevoked(deps, input.requestId, ['claimed']);
}

/** Whatever of the key is still sealed is wiped: the request has ended. */
export async function wipeSealedDeviceKey(deps: KeyRequestStepDeps, input: { requestId: string }): Promise<void> {
  await deps.db.keyRequest.updateMany({ where: { id: input.requestId, keySealed: { not: null } }, data: { keySealed: null } });
}

async function endWithKeyRevoked(deps: KeyRequestStepDeps, requestId: string, from: ('pending' | 'approved' | 'claimed')[]): Promise<void> {
  await deps.db.$transaction(async (tx) => {
    await lockFor(tx, `key-request:${requestId}`);
    const row = await tx.keyRequest.findUniqueOrThrow({ where: { id: requestId }, select: { status: true, keyId: true } });
    if (!(from as string[]).includes(row.status)) return;
    if (row.keyId) await revokeApiKey(tx, row.keyId);
    await tx.keyRequest.update({ where: { id: requestId }, data: { status: 'expired', liveUserCode: null, keySealed: null } });
  });
}
