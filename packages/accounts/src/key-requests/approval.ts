import { DomainError, type Caller } from '@vp/contracts';
import type { Db, KeyRequestStatus } from '@vp/db';
import { formatUserCode, normalizeUserCode } from './codes.ts';
import type { KeyRequestDeps } from './deps.ts';

/** A request as the approval page shows it: the code to confirm, who asks, when and from where. */
export type KeyRequestView = {
  id: string; userCode: string; name: string; requestedFrom: string | null; createdAt: Date; expiresAt: Date; status: KeyRequestStatus;
};

/** The request a typed code names (the newest holding it), or null when no request has it. */
export async function findKeyRequestByCode(db: Db, typed: string): Promise<KeyRequestView | null> {
  const code = normalizeUserCode(typed);
  if (!code) return null;
  const row = await db.keyRequest.findFirst({
    where: { userCode: code }, orderBy: [{ createdAt: 'desc' }],
    select: { id: true, userCode: true, name: true, requestedFrom: true, createdAt: true, expiresAt: true, status: true },
  });
  return row && { ...row, userCode: formatUserCode(row.userCode), status: shownStatus(row) };
}

/** A pending request past its lifetime is expired, even in the moment before its workflow says so. */
function shownStatus(row: { status: KeyRequestStatus; expiresAt: Date }): KeyRequestStatus {
  return row.status === 'pending' && row.expiresAt.getTime() <= Date.now() ? 'expired' : row.status;
}

/** Why a request cannot be answered any more, in words. */
export function answeredAlready(status: KeyRequestStatus): string {
  switch (status) {
    case 'approved': case 'claimed': return 'This request was already approved.';
    case 'denied': return 'This request was already refused.';
    case 'expired': return 'This code has expired. Ask the tool for a new one.';
    case 'pending': return 'This request is still waiting for an answer.';
  }
}

/**
 * Approves or refuses the request a code names, as the signed-in caller (the key acts as it).
 * Refused with `not_found` for a code no request has, `expired` when its time has passed, and
 * `stale` when it was answered already.
 */
export async function answerKeyRequest(deps: KeyRequestDeps, caller: Caller, input: { code: string; answer: 'approve' | 'deny' }): Promise<KeyRequestStatus> {
  const request = await findKeyRequestByCode(deps.db, input.code);
  if (!request) throw new DomainError('not_found', 'No key request has this code.');
  if (request.status !== 'pending') throw refusal(request.status);
  const outcome = input.answer === 'approve'
    ? await deps.workflows.approve(request.id, caller.accountId)
    : await deps.workflows.deny(request.id, caller.accountId);
  if (outcome?.applied) return outcome.status;
  const status = outcome?.status ?? (await deps.db.keyRequest.findUniqueOrThrow({ where: { id: request.id }, select: { status: true } })).status;
  throw refusal(status === 'pending' ? 'expired' : status);
}

const refusal = (status: KeyRequestStatus) => new DomainError(status === 'expired' ? 'expired' : 'stale', answeredAlready(status));
