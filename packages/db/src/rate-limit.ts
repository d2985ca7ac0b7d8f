import type { Db } from './client.ts';

const WINDOW_MS = 60_000;

/** The fixed one-minute window a moment falls in. */
export function windowAt(now: number): { start: Date; resetAt: Date } {
  const start = Math.floor(now / WINDOW_MS) * WINDOW_MS;
  return { start: new Date(start), resetAt: new Date(start + WINDOW_MS) };
}

/**
 * Fixed one-minute windows counted in PostgreSQL, so every gateway and app instance shares them:
 * one atomic upsert per request. The gateway counts requests with an API key in the key check
 * itself (`authenticateApiKey`), in the same round trip; this counts the rest (per address, and
 * the app's sign-in requests per e-mail).
 */
export function createRateLimiter(db: Db, now: () => number = Date.now) {
  return {
    now,
    async hit(bucket: string): Promise<number> {
      const [row] = await db.$queryRaw<{ count: number }[]>`
        INSERT INTO rate_limit_windows (bucket, window_start, count) VALUES (${bucket}, ${windowAt(now()).start}, 1)
        ON CONFLICT (bucket, window_start) DO UPDATE SET count = rate_limit_windows.count + 1
        RETURNING count`;
      return row?.count ?? 1;
    },

    /** The count of the current window, without counting: for limits that count only failures (wrong codes). */
    async count(bucket: string): Promise<number> {
      const [row] = await db.$queryRaw<{ count: number }[]>`
        SELECT count FROM rate_limit_windows WHERE bucket = ${bucket} AND window_start = ${windowAt(now()).start}`;
      return row?.count ?? 0;
    },

    /** Windows that have ended are of no use; called now and then by each gateway and app. */
    async sweep(): Promise<number> {
      return db.$executeRaw`DELETE FROM rate_limit_windows WHERE window_start < ${new Date(now() - 2 * WINDOW_MS)}`;
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
