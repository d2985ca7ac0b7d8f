import { createHash, randomBytes } from 'node:crypto';
import { API_KEY_DISPLAY_PREFIX_LENGTH, API_KEY_PREFIX, type Scope } from '@vp/contracts';
import type { Db } from '@vp/db';

/** `svc_live_` + 32 random bytes, base64url. Shown once; only its SHA-256 is kept. */
export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export type CreatedKey = { id: string; apiKey: string; prefix: string; scopes: Scope[] };

export async function createApiKey(db: Db, input: { accountId: string; name: string; scopes: readonly Scope[] }): Promise<CreatedKey> {
  const apiKey = generateApiKey();
  const prefix = apiKey.slice(0, API_KEY_DISPLAY_PREFIX_LENGTH);
  const row = await db.apiKey.create({
    data: { accountId: input.accountId, name: input.name, prefix, hash: hashSecret(apiKey), scopes: [...input.scopes] },
  });
  return { id: row.id, apiKey, prefix, scopes: [...input.scopes] };
}

/** Revokes a live key; false when it is unknown or already revoked. History is kept. */
export async function revokeApiKey(db: Db, keyId: string, accountId?: string): Promise<boolean> {
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
    select: { id: true, name: true, prefix: true, scopes: true, createdAt: true, lastUsedAt: true, revokedAt: true },
  });
}
