import { describe, expect } from 'vitest';
import { test } from '@vp/testing';
import { authenticateApiKey, createAccount, createApiKey, hashSecret, listApiKeys, revokeApiKey } from './index.ts';

describe('API keys', () => {
  test('are svc_live_ plus 32 random bytes, stored only as a SHA-256 hash', async ({ database: { db } }) => {
    const { account } = await createAccount(db, { email: 'keys@example.test' });
    const key = await createApiKey(db, { accountId: account.id, name: 'ci', scopes: ['productions'] });
    expect(key.apiKey).toMatch(/^svc_live_[A-Za-z0-9_-]{43}$/);
    const row = await db.apiKey.findUniqueOrThrow({ where: { id: key.id } });
    expect(row.hash).toBe(hashSecret(key.apiKey));
    expect(JSON.stringify(row)).not.toContain(key.apiKey);
    expect(row.prefix).toBe(key.apiKey.slice(0, 12));
  });

  test('authenticate the live key, record last use, and refuse it once revoked', async ({ database: { db } }) => {
    const { account } = await createAccount(db, { email: 'revoke@example.test' });
    const key = await createApiKey(db, { accountId: account.id, name: 'ci', scopes: ['renders'] });
    expect(await authenticateApiKey(db, key.apiKey)).toEqual({ keyId: key.id, accountId: account.id, scopes: ['renders'], accountName: 'revoke@example.test', hits: null });
    expect((await db.apiKey.findUniqueOrThrow({ where: { id: key.id } })).lastUsedAt).not.toBeNull();
    expect(await authenticateApiKey(db, key.apiKey + 'x')).toBeNull();
    const windowStart = new Date('2030-01-01T00:00:00Z');
    expect((await authenticateApiKey(db, key.apiKey, { bucket: 'renders', windowStart }))?.hits).toBe(1);
    expect((await authenticateApiKey(db, key.apiKey, { bucket: 'renders', windowStart }))?.hits).toBe(2);
    expect(await db.rateLimitWindow.findUnique({ where: { bucket_windowStart: { bucket: `renders:key:${key.id}`, windowStart } } })).toMatchObject({ count: 2 });
    expect(await authenticateApiKey(db, 'not-a-key')).toBeNull();
    expect(await revokeApiKey(db, key.id)).toBe(true);
    expect(await revokeApiKey(db, key.id)).toBe(false);
    expect(await authenticateApiKey(db, key.apiKey)).toBeNull();
    const [listed] = await listApiKeys(db, account.id);
    expect(listed?.revokedAt).not.toBeNull();
  });
});
