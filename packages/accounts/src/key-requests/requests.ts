import { randomUUID } from 'node:crypto';
import { DomainError } from '@vp/contracts';
import { isUniqueViolation, type KeyRequestStatus } from '@vp/db';
import { KEY_NAME_MAX } from '../keys.ts';
import { hashSecret } from '../secrets.ts';
import { formatUserCode, generateDeviceCode, generateUserCode } from './codes.ts';
import { POLL_INTERVAL_SECONDS, type KeyRequestDeps } from './deps.ts';

export type KeyRequestStarted = { deviceCode: string; userCode: string; approvalUrl: string; expiresInSeconds: number; pollIntervalSeconds: number };
export type KeyRequestPoll = { status: KeyRequestStatus; apiKey?: string };

/** Tries at a user code no live request holds (20^8 codes: a second try is already rare). */
const CODE_TRIES = 5;

/**
 * POST /v1/keys/request: a tool asks for a key on behalf of `name`. The request's row, then its
 * workflow; when the workflow cannot be started the row is removed again and the tool told to
 * try later, so nothing is left half-made.
 */
export async function requestKey(deps: KeyRequestDeps, input: { name: string; requestedFrom: string | null }): Promise<KeyRequestStarted> {
  const name = input.name.trim();
  if (!name || name.length > KEY_NAME_MAX) throw DomainError.invalid('name', `Say who is asking: 1 to ${KEY_NAME_MAX} characters.`);
  const deviceCode = generateDeviceCode();
  const id = randomUUID();
  const userCode = await insertRequest(deps, { id, deviceCodeHash: hashSecret(deviceCode), name, requestedFrom: input.requestedFrom });
  try {
    await deps.workflows.start(id);
  } catch (error) {
    await deps.db.keyRequest.delete({ where: { id } }).catch(() => {});
    throw error;
  }
  return {
    deviceCode, userCode: formatUserCode(userCode),
    approvalUrl: `${deps.appUrl}/keys/approve?code=${formatUserCode(userCode)}`,
    expiresInSeconds: Math.round(deps.pendingMs / 1000), pollIntervalSeconds: POLL_INTERVAL_SECONDS,
  };
}

async function insertRequest(deps: KeyRequestDeps, row: { id: string; deviceCodeHash: string; name: string; requestedFrom: string | null }): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const userCode = generateUserCode();
    try {
      await deps.db.keyRequest.create({
        data: { ...row, userCode, liveUserCode: userCode, expiresAt: new Date(Date.now() + deps.pendingMs) },
      });
      return userCode;
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= CODE_TRIES) throw error;
    }
  }
}

/**
 * POST /v1/keys/poll: where the request is. The first poll after approval claims the key (an
 * Update: concurrent polls are taken one after the other, and only the first is granted it) and
 * takes it from the database, where it is wiped as it is taken; later polls read `claimed`.
 * `revokeClaimed` revokes a claimed key while its workflow still allows it.
 */
export async function pollKeyRequest(deps: KeyRequestDeps, input: { deviceCode: string; revokeClaimed?: boolean }): Promise<KeyRequestPoll> {
  const row = await deps.db.keyRequest.findUnique({ where: { deviceCodeHash: hashSecret(input.deviceCode) }, select: { id: true, status: true } });
  if (!row) throw new DomainError('not_found', 'No key request has this device code.');
  if (row.status === 'approved') {
    const outcome = await deps.workflows.claim(row.id);
    if (!outcome?.applied) {
      const status = outcome?.status ?? await statusOf(deps, row.id);
      // Still approved, yet not granted: its claim window has just closed, and its timer is on the way.
      return { status: status === 'approved' ? 'expired' : status };
    }
    const apiKey = await takeKey(deps, row.id);
    // Granted the claim, yet the key was gone: only a second taker could have wiped it, and none is granted one.
    if (!apiKey) throw new DomainError('unavailable', 'The key could not be read; request a new one.');
    return { status: 'approved', apiKey };
  }
  if (row.status === 'claimed' && input.revokeClaimed) {
    const outcome = await deps.workflows.revokeClaimed(row.id);
    return { status: outcome?.status ?? await statusOf(deps, row.id) };
  }
  return { status: row.status };
}

async function statusOf(deps: KeyRequestDeps, id: string): Promise<KeyRequestStatus> {
  return (await deps.db.keyRequest.findUniqueOrThrow({ where: { id }, select: { status: true } })).status;
}

/** The sealed key, opened, and wiped in the same breath: a second taker finds nothing. */
async function takeKey(deps: KeyRequestDeps, id: string): Promise<string | null> {
  const row = await deps.db.keyRequest.findUnique({ where: { id }, select: { keySealed: true } });
  if (!row?.keySealed) return null;
  const { count } = await deps.db.keyRequest.updateMany({ where: { id, keySealed: row.keySealed }, data: { keySealed: null } });
  return count === 1 ? deps.box.open(row.keySealed, id) : null;
}
