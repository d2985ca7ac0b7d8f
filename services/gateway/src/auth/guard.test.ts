import { describe, expect } from 'vitest';
import { createApiKey, revokeApiKey } from '@vp/accounts';
import { seedAccount, test } from '@vp/testing';
import { createTestGateway, withKey, json } from '../testing/gateway.ts';

const it = test.extend('gateway', { scope: 'file' }, async ({ database }, { onCleanup }) => {
  const gateway = await createTestGateway(database);
  onCleanup(gateway.close);
  return gateway;
});

describe('API keys on /v1 (spec: Authentication)', () => {
  it('answers 401 in the error shape for a missing, malformed, unknown or revoked key', async ({ gateway, database }) => {
    const { apiKey, keyId } = await seedAccount(database.db);
    const revoked = await createApiKey(database.db, { accountId: (await database.db.apiKey.findUniqueOrThrow({ where: { id: keyId } })).accountId, name: 'old', scopes: ['productions'] });
    await revokeApiKey(database.db, revoked.id);
    const cases: [string, Record<string, string>][] = [
      ['missing', {}],
      ['not bearer', { authorization: `Basic ${apiKey}` }],
      ['wrong prefix', { authorization: 'Bearer sk_live_abc' }],
      ['empty bearer', { authorization: 'Bearer ' }],
      ['unknown', { authorization: `Bearer ${apiKey}x` }],
      ['revoked', { authorization: `Bearer ${revoked.apiKey}` }],
    ];
    for (const [what, headers] of cases) {
      const res = await gateway.app.request('/v1/productions', { headers });
      expect(res.status, what).toBe(401);
      const body = await json(res);
      // The spec's 401 has no code.
      expect(body, what).toEqual({ error: expect.any(String) });
    }
  });

  it('answers 403 api_key_missing_scope outside the key\'s scopes', async ({ gateway, database }) => {
    const { apiKey } = await seedAccount(database.db, { scopes: ['renders'] });
    const res = await gateway.app.request('/v1/productions', withKey(apiKey));
    expect(res.status).toBe(403);
    expect(await json(res)).toEqual({ error: expect.stringContaining('productions'), code: 'api_key_missing_scope' });
    const webhooks = await gateway.app.request('/v1/webhooks', withKey(apiKey));
    expect((await json(webhooks)).code).toBe('api_key_missing_scope');
  });

  it('answers 403 api_key_scope for a key used outside /v1', async ({ gateway, database }) => {
    const { apiKey } = await seedAccount(database.db);
    // `/v1x…` is not under /v1: /v1 is a whole segment.
    for (const path of ['/docs', '/production-links/abc', '/healthz', '/v1x', '/v1x/productions', '/v1.json', '/v1productions']) {
      const res = await gateway.app.request(path, withKey(apiKey));
      expect(res.status, path).toBe(403);
      expect((await json(res)).code, path).toBe('api_key_scope');
    }
  });

  it('answers a key at /mcp 401 with the metadata hint: the MCP server takes OAuth tokens only', async ({ gateway, database }) => {
    const { apiKey } = await seedAccount(database.db);
    const res = await gateway.app.request('/mcp', withKey(apiKey, { json: {} }));
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('resource_metadata=');
  });

  it('lets a live key with the scope through and records when it was last used', async ({ gateway, database }) => {
    const { apiKey, keyId } = await seedAccount(database.db);
    await database.db.apiKey.update({ where: { id: keyId }, data: { lastUsedAt: null } });
    const res = await gateway.app.request('/v1/productions', withKey(apiKey));
    expect(res.status).toBe(200);
    expect((await database.db.apiKey.findUniqueOrThrow({ where: { id: keyId } })).lastUsedAt).toBeInstanceOf(Date);
  });

  it('needs a key on unknown /v1 paths too, then answers 404', async ({ gateway, database }) => {
    const { apiKey } = await seedAccount(database.db);
    expect((await gateway.app.request('/v1/nothing-here')).status).toBe(401);
    const res = await gateway.app.request('/v1/nothing-here', withKey(apiKey));
    expect(res.status).toBe(404);
    expect(await json(res)).toEqual({ error: expect.any(String), code: 'not_found' });
  });

  it('publishes the OpenAPI document without a key, and with one', async ({ gateway, database }) => {
    const { apiKey } = await seedAccount(database.db);
    expect((await gateway.app.request('/v1/openapi.json')).status).toBe(200);
    expect((await gateway.app.request('/v1/openapi.json', withKey(apiKey))).status).toBe(200);
  });

  it('answers a browser signed in to the app (its session cookie, no key) 401, and 400 not_api_key on DELETE /v1/keys/current', async ({ gateway, database }) => {
    const { apiKey } = await seedAccount(database.db);
    for (const cookie of ['vp_session=abc', '__Host-vp_session=abc']) {
      const list = await gateway.app.request('/v1/productions', { headers: { cookie } });
      expect(list.status, cookie).toBe(401);
      expect(await json(list)).toEqual({ error: expect.stringContaining('browser session') });
      const revoke = await gateway.app.request('/v1/keys/current', { method: 'DELETE', headers: { cookie } });
      expect(revoke.status, cookie).toBe(400);
      expect(await json(revoke)).toEqual({ error: expect.any(String), code: 'not_api_key' });
    }
    // A key alongside the cookie is what counts.
    expect((await gateway.app.request('/v1/productions', withKey(apiKey, { headers: { cookie: 'vp_session=abc' } }))).status).toBe(200);
    expect((await gateway.app.request('/v1/keys/current', { method: 'DELETE', headers: { cookie: 'other=1' } })).status).toBe(401);
  });
});
