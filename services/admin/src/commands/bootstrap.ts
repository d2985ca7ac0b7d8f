import { createAccount, createApiKey, findAccountByEmail, personalWorkspace } from '@vp/accounts';
import { SCOPES } from '@vp/contracts';
import type { Db } from '@vp/db';
import { balance, grant } from '@vp/ledger';
import { failure } from '../cli-error.ts';
import { defineCommand } from '../command.ts';
import { isUniqueViolation } from '../lookups.ts';
import { print } from '../output.ts';
import { email } from '../values.ts';

/** DECISIONS.md: `admin bootstrap` for development grants 1000 credits. */
export const BOOTSTRAP_CREDITS = 1000;

export const bootstrapCommand = defineCommand({
  name: 'bootstrap',
  summary:
    'Set up a development account: reuses the account and its personal workspace when they exist, ' +
    `tops its credits up to ${BOOTSTRAP_CREDITS}, and prints a new API key with every scope.`,
  options: {
    email: { type: 'string', value: 'E', description: 'the account e-mail (default dev@localhost)' },
  },
  parse: (values) => ({ email: values.email === undefined ? 'dev@localhost' : email(values) }),
  async run(db, args: { email: string }, output) {
    const account = await findOrCreateAccount(db, args.email);
    const workspace = await personalWorkspace(db, account.id);
    if (!workspace) throw failure(`account ${account.email} has no personal workspace`);
    const credits = await topUp(db, account.id, BOOTSTRAP_CREDITS);
    const key = await createApiKey(db, { accountId: account.id, name: 'bootstrap', scopes: SCOPES, madeBy: 'operator' });
    print(
      output,
      { accountId: account.id, workspaceId: workspace.id, apiKey: key.apiKey },
      [
        `Account    ${account.email} (${account.id})`,
        `Workspace  ${workspace.name} (${workspace.id})`,
        `Credits    ${credits}`,
        `API key    ${key.apiKey}`,
        '',
        'The key has every scope and is shown only once.',
      ].join('\n'),
    );
  },
});

async function findOrCreateAccount(db: Db, address: string) {
  const existing = await findAccountByEmail(db, address);
  if (existing) return existing;
  try {
    return (await createAccount(db, { email: address, name: 'Developer' })).account;
  } catch (error) {
    // A bootstrap running alongside created it first.
    const raced = isUniqueViolation(error) ? await findAccountByEmail(db, address) : null;
    if (!raced) throw error;
    return raced;
  }
}

/**
 * Grants the difference up to `target` when the balance is lower, so runs do not pile up credits.
 * Under the ledger's per-account lock, so two runs (or a charge) cannot both see the old balance.
 */
async function topUp(db: Db, accountId: string, target: number): Promise<number> {
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${'credits:' + accountId}))`;
    const current = await balance(tx, accountId);
    if (current >= target) return current;
    await grant(tx, accountId, target - current, 'admin bootstrap');
    return target;
  });
}
