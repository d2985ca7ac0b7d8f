import { describe, expect } from 'vitest';
import { seedAccount, test } from '@vp/testing';
import { createTestGateway, withKey, json } from '../testing/gateway.ts';
import { createRateLimiter } from './fixed-window.ts';

/** A clock the test moves; windows start on whole minutes. */
function clock(start = Date.UTC(2030, 0, 1, 12, 0, 0)) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

describe('rate limits (spec: Limits, fixed one-minute windows)', () => {
  test('count per key and window, refuse the 121st production call with 429 rate_limited and Retry-After', async ({ database }) => {
    const time = clock();
    const gateway = await createTestGateway(database, { limiter: createRateLimiter(database.db, time.now) });
    try {
      const { apiKey } = await seedAccount(database.db);
      time.advance(15_000); // 45 s left in this window
      const statuses: number[] = [];
      for (let i = 0; i < 121; i++) statuses.push((await gateway.app.request('/v1/productions', withKey(apiKey))).status);
      expect(statuses.slice(0, 120).every((s) => s === 200)).toBe(true);
      const refused = await gateway.app.request('/v1/productions', withKey(apiKey));
      expect(refused.status).toBe(429);
      expect(await json(refused)).toEqual({ error: expect.any(String), code: 'rate_limited' });
      expect(refused.headers.get('ratelimit-limit')).toBe('120');
      expect(refused.headers.get('ratelimit-remaining')).toBe('0');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);

      // Another key of the same account has its own window.
      const other = await seedAccount(database.db);
      expect((await gateway.app.request('/v1/productions', withKey(other.apiKey))).status).toBe(200);

      // The next minute starts afresh.
      time.advance(45_000);
      const next = await gateway.app.request('/v1/productions', withKey(apiKey));
      expect(next.status).toBe(200);
      expect(next.headers.get('ratelimit-remaining')).toBe('119');
    } finally {
      await gateway.close();
    }
  });

  test('are shared by every gateway instance on the same database, exactly, under concurrency', async ({ database }) => {
    const time = clock(Date.UTC(2030, 0, 1, 13, 0, 0));
    const [one, two] = await Promise.all([0, 1].map(() => createTestGateway(database, { limiter: createRateLimiter(database.db, time.now) })));
    try {
      const { apiKey } = await seedAccount(database.db);
      const responses = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 ? one! : two!).app.request('/v1/productions', withKey(apiKey))));
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(120);
      expect(statuses.filter((s) => s === 429)).toHaveLength(80);
    } finally {
      await Promise.all([one!.close(), two!.close()]);
    }
  });

  test('count requests without a key per address, exactly, under concurrency', async ({ database }) => {
    const time = clock(Date.UTC(2030, 0, 1, 13, 30, 0));
    const limiterA = createRateLimiter(database.db, time.now);
    const limiterB = createRateLimiter(database.db, time.now);
    const counts = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 ? limiterA : limiterB).hit('production-links:ip:10.0.0.1')));
    expect(counts.sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
  });

  test('apply the spec table: webhooks 60 per key, renders 30 per key, production links 30 per address', async ({ database }) => {
    const time = clock(Date.UTC(2030, 0, 1, 14, 0, 0));
    const limiter = createRateLimiter(database.db, time.now);
    const gateway = await createTestGateway(database, { limiter });
    try {
      const { apiKey } = await seedAccount(database.db);
      const limitOf = async (path: string, init: RequestInit) => (await gateway.app.request(path, init)).headers.get('ratelimit-limit');
      expect(await limitOf('/v1/webhooks', withKey(apiKey))).toBe('60');
      expect(await limitOf('/v1/renders', withKey(apiKey))).toBe('30');
      expect(await limitOf('/production-links/some-token', {})).toBe('30');
      for (let i = 0; i < 29; i++) await gateway.app.request('/production-links/some-token');
      const refused = await gateway.app.request('/production-links/some-token');
      expect(refused.status).toBe(429);
      expect((await json(refused)).code).toBe('rate_limited');
    } finally {
      await gateway.close();
    }
  });

  test('forget windows that have ended', async ({ database }) => {
    const time = clock(Date.UTC(2030, 0, 1, 15, 0, 0));
    const limiter = createRateLimiter(database.db, time.now);
    await limiter.hit('sweep:key:a');
    time.advance(3 * 60_000);
    await limiter.hit('sweep:key:a');
    expect(await limiter.sweep()).toBeGreaterThanOrEqual(1);
    const left = await database.db.rateLimitWindow.findMany({ where: { bucket: 'sweep:key:a' } });
    expect(left.map((w) => w.windowStart.toISOString())).toEqual(['2030-01-01T15:03:00.000Z']);
  });
});
