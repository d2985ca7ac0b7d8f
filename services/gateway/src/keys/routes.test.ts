import { describe, expect } from 'vitest';
import { createApiKey, listApiKeys } from '@vp/accounts';
import { seedAccount, test } from '@vp/testing';
import { createRateLimiter } from '../rate-limit/fixed-window.ts';
import { createTestGateway, json, withKey } from '../testing/gateway.ts';

const it = test.extend('gateway', { scope: 'file' }, async ({ database }, { onCleanup }) => {
  const gateway = await createTestGateway(database);
  onCleanup(gateway.close);
  return gateway;
});

describe('DELETE /v1/keys/current (spec: API keys)', () => {
  it('revokes the calling key (204): it stops working at once, its history kept; again, it is 404 not_found', async ({ gateway, database }) => {
    const { account, apiKey, keyId } = await seedAccount(database.db);
    const other = await createApiKey(database.db, { accountId: account.id, name: 'ci', scopes: ['productions'] });
    const revoke = (key: string) => gateway.app.request('/v1/keys/current', withKey(key, { method: 'DELETE' }));

    const res = await revoke(apiKey);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect((await gateway.app.request('/v1/productions', withKey(apiKey))).status).toBe(401);
    // Only the calling key: the account's other key still works.
    expect((await gateway.app.request('/v1/productions', withKey(other.apiKey))).status).toBe(200);
    expect((await listApiKeys(database.db, account.id)).find((key) => key.id === keyId)).toMatchObject({ name: 'test', revokedAt: expect.any(Date) });

    const again = await revoke(apiKey);
    expect(again.status).toBe(404);
    expect(await json(again)).toEqual({ error: 'This API key is already revoked.', code: 'not_found' });
  });

  it('needs no scope; a missing or unknown key is a 401', async ({ gateway, database }) => {
    const { apiKey } = await seedAccount(database.db, { scopes: ['renders'] });
    expect((await gateway.app.request('/v1/keys/current', withKey(apiKey, { method: 'DELETE' }))).status).toBe(204);
    expect((await gateway.app.request('/v1/keys/current', withKey(null, { method: 'DELETE' }))).status).toBe(401);
    expect((await gateway.app.request('/v1/keys/current', withKey(`${apiKey}x`, { method: 'DELETE' }))).status).toBe(401);
  });

  test('counts 30 calls a minute per key, a revoked key\'s included: the 31st is 429 with Retry-After', async ({ database }) => {
    // A clock standing still at the start of a minute: no window ends between the calls.
    const gateway = await createTestGateway(database, { limiter: createRateLimiter(database.db, () => Date.UTC(2030, 0, 1, 12, 0, 0)) });
    try {
      const { apiKey } = await seedAccount(database.db);
      const statuses: number[] = [];
      for (let call = 0; call < 30; call++) statuses.push((await gateway.app.request('/v1/keys/current', withKey(apiKey, { method: 'DELETE' }))).status);
      expect(statuses).toEqual([204, ...Array(29).fill(404)]);
      const refused = await gateway.app.request('/v1/keys/current', withKey(apiKey, { method: 'DELETE' }));
      expect(refused.status).toBe(429);
      expect(await json(refused)).toEqual({ error: expect.any(String), code: 'rate_limited' });
      expect(refused.headers.get('ratelimit-limit')).toBe('30');
      expect(refused.headers.get('retry-after')).toBe('60');
    } finally {
      await gateway.close();
    }
  });
});
