import { createApiKey, listApiKeys, revokeApiKey } from '@vp/accounts';
import { SCOPES, type Scope } from '@vp/contracts';
import { failure } from '../cli-error.ts';
import { defineCommand } from '../command.ts';
import { accountByEmail } from '../lookups.ts';
import { print } from '../output.ts';
import { ACCOUNT_EMAIL, email, id, name, scopes } from '../values.ts';

export const createKeyCommand = defineCommand({
  name: 'key create',
  summary: 'Create an API key for an account. The key is printed once and never again.',
  options: {
    email: ACCOUNT_EMAIL,
    name: { type: 'string', value: 'N', required: true, description: 'what the key is for, 1 to 100 characters' },
    scopes: { type: 'string', value: 'S,S…', required: true, description: `comma-separated: ${SCOPES.join(', ')}` },
  },
  parse: (values) => ({ email: email(values), name: name(values), scopes: scopes(values) }),
  async run(db, args: { email: string; name: string; scopes: Scope[] }, output) {
    const account = await accountByEmail(db, args.email);
    const key = await createApiKey(db, { accountId: account.id, name: args.name, scopes: args.scopes, madeBy: 'operator' });
    print(
      output,
      { id: key.id, apiKey: key.apiKey, prefix: key.prefix, name: args.name, scopes: key.scopes },
      `${key.apiKey}\n\nKey ${key.id} (${args.name}) for ${account.email}, scopes: ${key.scopes.join(', ')}.\nStore it now: it is shown only once.`,
    );
  },
});

export const listKeysCommand = defineCommand({
  name: 'key list',
  summary: 'List an account\'s API keys, newest first (revoked ones included).',
  options: {
    email: ACCOUNT_EMAIL,
  },
  parse: (values) => ({ email: email(values) }),
  async run(db, args: { email: string }, output) {
    const account = await accountByEmail(db, args.email);
    const keys = (await listApiKeys(db, account.id)).map((k) => ({
      id: k.id,
      prefix: k.prefix,
      name: k.name,
      scopes: k.scopes,
      createdAt: k.createdAt.toISOString(),
      lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
      revokedAt: k.revokedAt?.toISOString() ?? null,
      madeBy: k.madeBy,
    }));
    const rows = keys.map((k) => [k.id, k.prefix, k.name, k.scopes.join(','), k.createdAt, k.lastUsedAt ?? 'never', k.revokedAt ?? '-', MADE_BY[k.madeBy] ?? k.madeBy]);
    const human = keys.length
      ? table(['ID', 'PREFIX', 'NAME', 'SCOPES', 'CREATED', 'LAST USED', 'REVOKED', 'MADE BY'], rows)
      : `${account.email} has no API keys`;
    print(output, { keys }, human);
  },
});

export const revokeKeyCommand = defineCommand({
  name: 'key revoke',
  summary: 'Revoke an API key at once. Its history stays in the list.',
  options: {
    id: { type: 'string', value: 'K', required: true, description: 'the key id (see `admin key list`)' },
  },
  parse: (values) => ({ id: id(values, 'id') }),
  async run(db, args: { id: string }, output) {
    const revoked = await revokeApiKey(db, args.id);
    const key = await db.apiKey.findUnique({ where: { id: args.id } });
    if (!key) throw failure(`no API key with id ${args.id}`);
    const when = key.revokedAt?.toISOString() ?? null;
    print(
      output,
      { id: key.id, prefix: key.prefix, revokedAt: when, alreadyRevoked: !revoked },
      revoked ? `Revoked key ${key.prefix}… (${key.name})` : `Key ${key.prefix}… (${key.name}) was already revoked at ${when}`,
    );
  },
});

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  return [header, ...rows].map((r) => r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n');
}

/** How a key was made, as the table says it (JSON keeps the stored value). */
const MADE_BY: Record<string, string> = { app: 'app', device: 'device flow', operator: 'operator' };
