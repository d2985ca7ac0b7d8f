import { test as base } from 'vitest';
import { createAccount, createApiKey } from '@vp/accounts';
import { SCOPES, type Scope } from '@vp/contracts';
import { grant } from '@vp/ledger';
import { createTestDatabase, type TestDatabase } from './database.ts';

let counter = 0;

/** An account with its personal workspace, credits and a key. */
export async function seedAccount(
  db: TestDatabase['db'],
  options: { credits?: number; scopes?: readonly Scope[]; email?: string } = {},
) {
  const email = options.email ?? `user${++counter}-${Date.now()}@example.test`;
  const { account, workspace } = await createAccount(db, { email, name: 'Test User' });
  if (options.credits) await grant(db, account.id, options.credits, 'test');
  const key = await createApiKey(db, { accountId: account.id, name: 'test', scopes: options.scopes ?? SCOPES });
  return { account, workspace, apiKey: key.apiKey, keyId: key.id };
}

/** `test` with a fresh, migrated database shared by the tests of one file. */
export const test = base.extend('database', { scope: 'file' }, async ({}, { onCleanup }) => {
  const database = await createTestDatabase();
  onCleanup(() => database.drop());
  return database;
});
