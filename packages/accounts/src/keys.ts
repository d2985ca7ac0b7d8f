import { createHash, randomBytes } from 'node:crypto';
import { API_KEY_DISPLAY_PREFIX_LENGTH, API_KEY_PREFIX, type Scope } from '@vp/contracts';
import { sqlPool, type Db } from '@vp/db';

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

export type KeyPrincipal = { keyId: string; accountId: string; scopes: Scope[]; /** The owner's name, else e-mail. */ accountName: string };

const LAST_USED_RESOLUTION_MS = 60_000;

/** A request to count in the key's fixed rate-limit window (bucket `<name>:key:<keyId>`). */
export type CountHit = { bucket: string; windowStart: Date };

/**
 * The live key behind a plaintext, or null, in one round trip: it also records `lastUsedAt`
 * (at most once a minute per key) and, when asked, counts the request in the key's rate-limit
 * window — the gateway does this on every request, so it is one statement, not three.
 */
export async function authenticateApiKey(db: Db, plaintext: string, count?: CountHit): Promise<(KeyPrincipal & { hits: number | null }) | null> {
  if (!plaintext.startsWith(API_KEY_PREFIX)) return null;
  const { rows } = await sqlPool(db).query<{ id: string; account_id: string; scopes: Scope[]; account_name: string; hits: number | null }>({
    name: 'authenticate-api-key',
    text: `WITH relaxed AS (
       -- Counters and last-used times may lose their last instant in a database crash; not
       -- waiting for the WAL flush at commit keeps every request off the disk's latency.
       SELECT set_config('synchronous_commit', 'off', true)
     ), key AS (
       SELECT k.id, k.account_id, k.scopes, k.last_used_at, coalesce(a.name, a.email) AS account_name
       FROM api_keys k JOIN accounts a ON a.id = k.account_id
       WHERE k.hash = $1 AND k.revoked_at IS NULL
     ), touched AS (
       UPDATE api_keys SET last_used_at = $2 FROM key
       WHERE api_keys.id = key.id AND (key.last_used_at IS NULL OR key.last_used_at < $2::timestamptz - $3::interval)
     ), hit AS (
       INSERT INTO rate_limit_windows (bucket, window_start, count)
       SELECT $4::text || ':key:' || key.id, $5, 1 FROM key WHERE $4::text IS NOT NULL
       ON CONFLICT (bucket, window_start) DO UPDATE SET count = rate_limit_windows.count + 1
       RETURNING count
     )
     SELECT key.id, key.account_id, key.scopes, key.account_name, (SELECT count FROM hit) AS hits FROM key, relaxed`,
    values: [hashSecret(plaintext), new Date(), `${LAST_USED_RESOLUTION_MS} milliseconds`, count?.bucket ?? null, count?.windowStart ?? null],
  });
  const key = rows[0];
  return key ? { keyId: key.id, accountId: key.account_id, scopes: key.scopes, accountName: key.account_name, hits: key.hits } : null;
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
