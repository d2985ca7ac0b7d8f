import { randomBytes } from 'node:crypto';
import { API_KEY_DISPLAY_PREFIX_LENGTH, API_KEY_PREFIX, DomainError, SCOPES, type Caller, type Scope } from '@vp/contracts';
import type { Db, DbOrTx, KeyOrigin } from '@vp/db';
import { hashSecret } from './secrets.ts';
import { idOrNotFound } from './validate.ts';

/** `svc_live_` + 32 random bytes, base64url. Shown once; only its SHA-256 is kept. */
export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

export type CreatedKey = { id: string; apiKey: string; prefix: string; scopes: Scope[] };

/** A key for an account; `madeBy` says how (the operator's CLI unless said otherwise). */
export async function createApiKey(db: DbOrTx, input: { accountId: string; name: string; scopes: readonly Scope[]; madeBy?: KeyOrigin }): Promise<CreatedKey> {
  const apiKey = generateApiKey();
  const prefix = apiKey.slice(0, API_KEY_DISPLAY_PREFIX_LENGTH);
  const row = await db.apiKey.create({
    data: { accountId: input.accountId, name: input.name, prefix, hash: hashSecret(apiKey), scopes: [...input.scopes], madeBy: input.madeBy ?? 'operator' },
  });
  return { id: row.id, apiKey, prefix, scopes: [...input.scopes] };
}

/** Revokes a live key; false when it is unknown or already revoked. History is kept. */
export async function revokeApiKey(db: DbOrTx, keyId: string, accountId?: string): Promise<boolean> {
  const { count } = await db.apiKey.updateMany({
    where: { id: keyId, revokedAt: null, ...(accountId ? { accountId } : {}) },
    data: { revokedAt: new Date() },
  });
  return count === 1;
}

export function listApiKeys(db: Db, accountId: string) {
  return db.apiKey.findMany({
    where: { accountId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: { id: true, name: true, prefix: true, scopes: true, createdAt: true, lastUsedAt: true, revokedAt: true, madeBy: true },
  });
}

/** DECISIONS: a key's name is 1 to 100 characters. */
export const KEY_NAME_MAX = 100;

/** A key the caller makes for itself (in the app: `madeBy: 'app'`), with the scopes chosen (spec: Authentication 4). */
export async function createKey(db: Db, caller: Caller, input: { name: string; scopes: readonly string[]; madeBy: KeyOrigin }): Promise<CreatedKey> {
  const name = input.name.trim();
  const issues = [];
  if (!name || name.length > KEY_NAME_MAX) issues.push({ path: 'name', message: `Name the key: 1 to ${KEY_NAME_MAX} characters.` });
  const scopes = SCOPES.filter((scope) => input.scopes.includes(scope));
  if (!scopes.length || scopes.length !== new Set(input.scopes).size) issues.push({ path: 'scopes', message: `Choose one or more scopes: ${SCOPES.join(', ')}.` });
  if (issues.length) throw new DomainError('invalid', issues.map((i) => i.message).join(' '), { issues });
  return createApiKey(db, { accountId: caller.accountId, name, scopes, madeBy: input.madeBy });
}

/** The caller's keys, revoked ones included (their history is kept). */
export function listKeys(db: Db, caller: Caller) {
  return listApiKeys(db, caller.accountId);
}

/** Revokes one of the caller's keys at once; a key already revoked stays so. Another's key is not found. */
export async function revokeKey(db: Db, caller: Caller, keyId: string): Promise<void> {
  if (await revokeApiKey(db, idOrNotFound(keyId, 'key'), caller.accountId)) return;
  const own = await db.apiKey.findFirst({ where: { id: keyId, accountId: caller.accountId }, select: { id: true } });
  if (!own) throw new DomainError('not_found', 'No such key.');
}
