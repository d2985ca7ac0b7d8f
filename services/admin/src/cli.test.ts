import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect } from 'vitest';
import { authenticateApiKey, createApiKey } from '@vp/accounts';
import { balance } from '@vp/ledger';
import { seedAccount, test, testConfig, testSecrets } from '@vp/testing';
import { insertEndpoint, createSecretBox } from '@vp/webhooks';
import type { Db } from '@vp/db';
import { runCli } from './cli.ts';

/** Runs `admin …` in-process against the test database; returns exit code and output. */
async function admin(db: Db, ...argv: string[]) {
  return adminWith(db, {}, ...argv);
}

/** The same, with the services' configuration given these settings. */
async function adminWith(db: Db, env: Record<string, string>, ...argv: string[]) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runCli(argv, { db: () => db, config: () => testConfig('postgresql://unused', env), stdout: (l) => stdout.push(l), stderr: (l) => stderr.push(l) });
  return { code, stdout: stdout.join('\n'), stderr: stderr.join('\n'), json: () => JSON.parse(stdout.join('\n')) };
}

describe('admin bootstrap', () => {
  test('creates a development account, workspace, 1000 credits and an all-scope key, printed as one JSON line', async ({ database: { db } }) => {
    const run = await admin(db, 'bootstrap', '--json');
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')).toHaveLength(1);
    const out = run.json();
    expect(Object.keys(out).sort()).toEqual(['accountId', 'apiKey', 'workspaceId']);
    const key = await authenticateApiKey(db, out.apiKey);
    expect(key).toMatchObject({ accountId: out.accountId, scopes: ['productions', 'renders', 'capture', 'import'] });
    expect(await balance(db, out.accountId)).toBe(1000);
    const workspace = await db.workspace.findUniqueOrThrow({ where: { id: out.workspaceId } });
    expect(workspace).toMatchObject({ ownerId: out.accountId, personal: true });
  });

  test('reuses the account and workspace on a second run, tops credits up to 1000 and issues a new key', async ({ database: { db } }) => {
    const first = (await admin(db, 'bootstrap', '--json', '--email', 'again@example.test')).json();
    const [second, third] = await Promise.all([
      admin(db, 'bootstrap', '--json', '--email', 'again@example.test'),
      admin(db, 'bootstrap', '--json', '--email', 'again@example.test'),
    ]);
    for (const run of [second, third]) {
      expect(run.code).toBe(0);
      expect(run.json()).toMatchObject({ accountId: first.accountId, workspaceId: first.workspaceId });
      expect(run.json().apiKey).not.toBe(first.apiKey);
    }
    expect(await balance(db, first.accountId)).toBe(1000);
  });
});

describe('admin accounts, members, keys, credits and caps', () => {
  test('work end to end with JSON output', async ({ database: { db } }) => {
    const owner = (await admin(db, 'account', 'create', '--email', 'Owner@Example.test', '--name', 'Olga', '--json')).json();
    expect(owner.email).toBe('owner@example.test');
    await admin(db, 'account', 'create', '--email', 'ed@example.test');
    const space = (await admin(db, 'workspace', 'create', '--owner', 'owner@example.test', '--name', 'Team', '--json')).json();
    const member = await admin(db, 'member', 'add', '--workspace', space.workspaceId, '--email', 'ed@example.test', '--role', 'viewer', '--json');
    expect(member.json()).toMatchObject({ role: 'viewer' });
    const cap = await admin(db, 'workspace', 'set-cap', '--workspace', space.workspaceId, '--cap', '7', '--json');
    expect(cap.json()).toEqual({ workspaceId: space.workspaceId, pitchCap: 7 });

    const key = (await admin(db, 'key', 'create', '--email', 'ed@example.test', '--name', 'CI', '--scopes', 'renders,productions', '--json')).json();
    expect(key.scopes).toEqual(['renders', 'productions']);
    const listed = (await admin(db, 'key', 'list', '--email', 'ed@example.test', '--json')).json();
    expect(listed.keys).toEqual([expect.objectContaining({ id: key.id, prefix: key.apiKey.slice(0, 12), name: 'CI', revokedAt: null, madeBy: 'operator' })]);
    expect(JSON.stringify(listed)).not.toContain(key.apiKey);
    expect((await admin(db, 'key', 'revoke', '--id', key.id, '--json')).json()).toMatchObject({ id: key.id, alreadyRevoked: false });
    expect(await authenticateApiKey(db, key.apiKey)).toBeNull();
    expect((await admin(db, 'key', 'revoke', '--id', key.id, '--json')).json()).toMatchObject({ alreadyRevoked: true });

    // A key made by the device flow: the table says so in words.
    await createApiKey(db, { accountId: owner.accountId, name: 'vp CLI', scopes: ['productions', 'renders', 'capture', 'import'], madeBy: 'device' });
    const table = (await admin(db, 'key', 'list', '--email', 'owner@example.test')).stdout;
    expect(table).toMatch(/vp CLI\s+productions,renders,capture,import\s+.*device flow/);
    expect((await admin(db, 'key', 'list', '--email', 'owner@example.test', '--json')).json().keys[0]).toMatchObject({ madeBy: 'device' });

    const granted = (await admin(db, 'credits', 'grant', '--email', 'owner@example.test', '--amount', '250', '--json')).json();
    expect(granted).toEqual({ accountId: owner.accountId, granted: 250, balance: 250 });
  });

  test('refuse bad arguments with a clear message and exit code 2, before touching the database', async ({ database: { db } }) => {
    const cases: [string[], RegExp][] = [
      [['frobnicate'], /unknown command 'frobnicate'/],
      [['key', 'create', '--email', 'a@b.c', '--name', 'x'], /missing --scopes/],
      [['key', 'create', '--email', 'a@b.c', '--name', 'x', '--scopes', 'productions,admin'], /unknown scope 'admin'/],
      [['account', 'create', '--email', 'not-an-email'], /--email must be an e-mail address/],
      [['credits', 'grant', '--email', 'a@b.c', '--amount=-5'], /--amount must be a positive whole number/],
      [['credits', 'grant', '--email', 'a@b.c', '--amount', '-5'], /'--amount' argument is ambiguous/],
      [['credits', 'grant', '--email', 'a@b.c', '--amount', '1.5'], /--amount must be a positive whole number/],
      [['member', 'add', '--workspace', 'nope', '--email', 'a@b.c', '--role', 'viewer'], /--workspace must be an id/],
      [['member', 'add', '--workspace', crypto.randomUUID(), '--email', 'a@b.c', '--role', 'boss'], /--role must be one of owner, editor, viewer/],
      [['bootstrap', '--colour'], /Unknown option '--colour'/],
    ];
    const untouchable = new Proxy({}, { get: () => { throw new Error('the database was touched'); } }) as Db;
    for (const [argv, message] of cases) {
      const run = await admin(untouchable, ...argv);
      expect(run.code, argv.join(' ')).toBe(2);
      expect(run.stderr, argv.join(' ')).toMatch(message);
      expect(run.stdout).toBe('');
    }
    void db;
  });

  test('answer exit code 1 with the reason when the operation cannot be done', async ({ database: { db } }) => {
    const cases: [string[], RegExp][] = [
      [['key', 'create', '--email', 'ghost@example.test', '--name', 'x', '--scopes', 'renders'], /no account with e-mail ghost@example.test/],
      [['workspace', 'set-cap', '--workspace', crypto.randomUUID(), '--cap', '3'], /no workspace with id/],
      [['key', 'revoke', '--id', crypto.randomUUID()], /no API key with id/],
    ];
    await admin(db, 'account', 'create', '--email', 'dup@example.test');
    cases.push([['account', 'create', '--email', 'dup@example.test'], /already exists/]);
    for (const [argv, message] of cases) {
      const run = await admin(db, ...argv);
      expect(run.code, argv.join(' ')).toBe(1);
      expect(run.stderr, argv.join(' ')).toMatch(message);
    }
  });

  test('help lists every command and exits 0', async ({ database: { db } }) => {
    const run = await admin(db, '--help');
    expect(run.code).toBe(0);
    for (const command of ['bootstrap', 'account create', 'member add', 'key create', 'key list', 'key revoke', 'credits grant', 'workspace set-cap']) {
      expect(run.stdout).toContain(command);
    }
  });
});

describe('admin webhooks reseal', () => {
  test('seals every endpoint\'s secret with the new WEBHOOK_SECRET_KEY, the old one kept as the previous', async ({ database: { db } }) => {
    const oldKey = 'the-old-webhook-secret-key-0123456789abcd';
    const newKey = 'the-new-webhook-secret-key-0123456789abcd';
    const { workspace } = await seedAccount(db);
    const { row, secret } = await insertEndpoint(db, createSecretBox(oldKey), { workspaceId: workspace.id, url: 'https://hooks.example.com/in' });
    const rotating = { WEBHOOK_SECRET_KEY: newKey, WEBHOOK_SECRET_KEY_PREVIOUS: oldKey };
    const run = await adminWith(db, rotating, 'webhooks', 'reseal', '--json');
    expect(run.code, run.stderr).toBe(0);
    expect(run.json().resealed).toBeGreaterThanOrEqual(1);
    const sealed = (await db.webhookEndpoint.findUniqueOrThrow({ where: { id: row.id } })).secretEncrypted;
    expect(createSecretBox(newKey).open(sealed, row.id)).toBe(secret);
    // Without the previous key, a secret sealed with another is named, and the exit code says so.
    await insertEndpoint(db, createSecretBox(oldKey), { workspaceId: workspace.id, url: 'https://hooks.example.com/other' });
    const stuck = await adminWith(db, { WEBHOOK_SECRET_KEY: newKey }, 'webhooks', 'reseal');
    expect(stuck.code).toBe(1);
    expect(stuck.stderr).toMatch(/secrets neither key opens/);
  });
});

describe('pnpm admin (the process)', () => {
  test('prints the bootstrap JSON on stdout and exits 0; exits 2 on a usage error', async ({ database }) => {
    const main = fileURLToPath(new URL('./main.ts', import.meta.url));
    const exec = (args: string[]) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
        execFile(process.execPath, ['--import', 'tsx', main, ...args], { env: { PATH: process.env.PATH, DATABASE_URL: database.url, ...testSecrets } }, (error, stdout, stderr) =>
          resolve({ code: error ? Number(error.code) : 0, stdout, stderr })),
      );
    const ok = await exec(['bootstrap', '--json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toHaveProperty('apiKey');
    const bad = await exec(['key', 'create']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/missing --email/);
  });
});
