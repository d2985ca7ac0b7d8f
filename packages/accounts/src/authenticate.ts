import DataLoader from 'dataloader';
import { API_KEY_PREFIX, type Scope } from '@vp/contracts';
import { sqlPool, type Db } from '@vp/db';
import { hashSecret } from './secrets.ts';

export type KeyPrincipal = { keyId: string; accountId: string; scopes: Scope[]; /** The owner's name, else e-mail. */ accountName: string };

/** A request to count in the key's fixed rate-limit window (bucket `<name>:key:<keyId>`). */
export type CountHit = { bucket: string; windowStart: Date };

type Check = { hash: string; count?: CountHit };
type Checked = (KeyPrincipal & { hits: number | null }) | null;

const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * The live key behind a plaintext, or null. It also records `lastUsedAt` (at most once a minute
 * per key) and, when asked, counts the request in the key's rate-limit window. The gateway does
 * this on every request, so the checks of requests that arrive together go to PostgreSQL as one
 * statement: one round trip however many requests are waiting.
 */
export async function authenticateApiKey(db: Db, plaintext: string, count?: CountHit): Promise<Checked> {
  if (!plaintext.startsWith(API_KEY_PREFIX)) return null;
  return checksFor(db).load({ hash: hashSecret(plaintext), count });
}

/** The id of the revoked key behind a plaintext; null for an unknown key, or one still live. */
export async function revokedApiKeyId(db: Db, plaintext: string): Promise<string | null> {
  if (!plaintext.startsWith(API_KEY_PREFIX)) return null;
  const key = await db.apiKey.findFirst({ where: { hash: hashSecret(plaintext), revokedAt: { not: null } }, select: { id: true } });
  return key?.id ?? null;
}

const loaders = new WeakMap<Db, DataLoader<Check, Checked>>();

function checksFor(db: Db): DataLoader<Check, Checked> {
  let loader = loaders.get(db);
  if (!loader) {
    // Batches what arrived in one turn of the event loop (every socket read it handled), not
    // only what one callback asked for; nothing is cached, each check is a fresh read.
    loader = new DataLoader((checks) => checkKeys(db, checks), { cache: false, maxBatchSize: 200, batchScheduleFn: (run) => setImmediate(run) });
    loaders.set(db, loader);
  }
  return loader;
}

/**
 * One statement for many checks. Hits on the same window are added up in one upsert; each
 * request then gets its own place in that window's count (the total less the hits after it),
 * so the limit refuses exactly the requests past it.
 */
async function checkKeys(db: Db, checks: readonly Check[]): Promise<Checked[]> {
  const { rows } = await sqlPool(db).query<{ n: string; id: string; account_id: string; scopes: Scope[]; account_name: string; hits: number | null }>({
    name: 'authenticate-api-keys',
    text: `WITH relaxed AS (
       -- Counters and last-used times may lose their last instant in a database crash; not
       -- waiting for the WAL flush at commit keeps every request off the disk's latency.
       SELECT set_config('synchronous_commit', 'off', true)
     ), input AS (
       SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[]) WITH ORDINALITY AS i(hash, bucket, window_start, n)
     ), key AS (
       SELECT i.n, i.bucket || ':key:' || k.id AS bucket, i.window_start, k.id, k.account_id, k.scopes, k.last_used_at,
              coalesce(a.name, a.email) AS account_name
       FROM input i JOIN api_keys k ON k.hash = i.hash AND k.revoked_at IS NULL JOIN accounts a ON a.id = k.account_id
     ), touched AS (
       UPDATE api_keys SET last_used_at = $4 FROM (SELECT DISTINCT id, last_used_at FROM key) used
       WHERE api_keys.id = used.id AND (used.last_used_at IS NULL OR used.last_used_at < $4::timestamptz - $5::interval)
     ), hit AS (
       INSERT INTO rate_limit_windows (bucket, window_start, count)
       SELECT bucket, window_start, count(*) FROM key WHERE bucket IS NOT NULL GROUP BY bucket, window_start
       ON CONFLICT (bucket, window_start) DO UPDATE SET count = rate_limit_windows.count + excluded.count
       RETURNING bucket, window_start, count
     )
     SELECT key.n, key.id, key.account_id, key.scopes, key.account_name,
            (hit.count - count(*) OVER later + 1)::int AS hits
     FROM key CROSS JOIN relaxed
     LEFT JOIN hit ON hit.bucket = key.bucket AND hit.window_start = key.window_start
     WINDOW later AS (PARTITION BY key.bucket, key.window_start ORDER BY key.n DESC)`,
    values: [
      checks.map((c) => c.hash), checks.map((c) => c.count?.bucket ?? null), checks.map((c) => c.count?.windowStart ?? null),
      new Date(), `${LAST_USED_RESOLUTION_MS} milliseconds`,
    ],
  });
  const byPosition = new Map(rows.map((row) => [Number(row.n), row]));
  return checks.map((_, i) => {
    const row = byPosition.get(i + 1);
    return row ? { keyId: row.id, accountId: row.account_id, scopes: row.scopes, accountName: row.account_name, hits: row.hits } : null;
  });
}
