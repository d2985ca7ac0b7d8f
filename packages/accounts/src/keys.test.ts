import { describe, expect } from 'vitest';
import { test } from '@vp/testing';
import { authenticateApiKey, createAccount, createApiKey, createKey, hashSecret, listApiKeys, listKeys, revokeApiKey, revokeKey } from './index.ts';

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

  test('checked together (one statement), each request gets its own answer and its own place in the window', async ({ database: { db } }) => {
    const { account } = await createAccount(db, { email: 'batch@example.test', name: 'Batch' });
    const [a, b, revoked] = await Promise.all([1, 2, 3].map((i) => createApiKey(db, { accountId: account.id, name: `k${i}`, scopes: ['productions'] })));
    await revokeApiKey(db, revoked!.id);
    const minute = new Date('2030-01-01T00:00:00Z');
    const next = new Date('2030-01-01T00:01:00Z');
    const read = { bucket: 'read', windowStart: minute };
    // Started in the same turn of the event loop: they reach PostgreSQL as one batch.
    const results = await Promise.all([
      authenticateApiKey(db, a!.apiKey, read), authenticateApiKey(db, b!.apiKey, read), authenticateApiKey(db, a!.apiKey, read),
      authenticateApiKey(db, revoked!.apiKey, read), authenticateApiKey(db, `${a!.apiKey}x`, read), authenticateApiKey(db, a!.apiKey),
      authenticateApiKey(db, a!.apiKey, read), authenticateApiKey(db, a!.apiKey, { bucket: 'read', windowStart: next }),
    ]);
    expect(results.map((r) => r && [r.keyId, r.hits])).toEqual([
      [a!.id, 1], [b!.id, 1], [a!.id, 2], null, null, [a!.id, null], [a!.id, 3], [a!.id, 1],
    ]);
    expect(results[1]).toEqual({ keyId: b!.id, accountId: account.id, scopes: ['productions'], accountName: 'Batch', hits: 1 });
    const windows = await db.rateLimitWindow.findMany({ where: { bucket: `read:key:${a!.id}` }, orderBy: { windowStart: 'asc' } });
    expect(windows.map((w) => w.count)).toEqual([3, 1]);
    // The next batch counts on from there.
    expect((await authenticateApiKey(db, a!.apiKey, read))?.hits).toBe(4);
  });

  test('made in the app: named, with the scopes chosen, recorded as made there; revoked at once, history kept', async ({ database: { db } }) => {
    const { account } = await createAccount(db, { email: 'app-keys@example.test' });
    const { account: other } = await createAccount(db, { email: 'app-keys-other@example.test' });
    const me = { accountId: account.id, actor: `user:${account.id}`, via: 'app' } as const;
    const key = await createKey(db, me, { name: '  CI deploys ', scopes: ['renders', 'productions'], madeBy: 'app' });
    expect(key.scopes).toEqual(['productions', 'renders']);
    await expect(createKey(db, me, { name: '', scopes: ['productions'], madeBy: 'app' })).rejects.toMatchObject({ code: 'invalid', details: { issues: [{ path: 'name' }] } });
    await expect(createKey(db, me, { name: 'x'.repeat(101), scopes: ['productions'], madeBy: 'app' })).rejects.toMatchObject({ code: 'invalid' });
    await expect(createKey(db, me, { name: 'none', scopes: [], madeBy: 'app' })).rejects.toMatchObject({ code: 'invalid', details: { issues: [{ path: 'scopes' }] } });
    await expect(createKey(db, me, { name: 'odd', scopes: ['productions', 'admin'], madeBy: 'app' })).rejects.toMatchObject({ code: 'invalid' });
    const operators = await createApiKey(db, { accountId: account.id, name: 'cli', scopes: ['import'] });
    expect((await listKeys(db, me)).map((k) => [k.name, k.madeBy])).toEqual([['cli', 'operator'], ['CI deploys', 'app']]);
    await revokeKey(db, me, key.id);
    await revokeKey(db, me, key.id);
    expect(await authenticateApiKey(db, key.apiKey)).toBeNull();
    expect((await listKeys(db, me)).find((k) => k.id === key.id)?.revokedAt).toBeInstanceOf(Date);
    await expect(revokeKey(db, { ...me, accountId: other.id }, operators.id)).rejects.toMatchObject({ code: 'not_found' });
    expect(await authenticateApiKey(db, operators.apiKey)).not.toBeNull();
  });
});
