import type { AddressInfo } from 'node:net';
import type { Client } from '@temporalio/client';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { createAccount, setMember } from '@vp/accounts';
import { Brief, TASK_QUEUES, taskQueue, type TaskQueueName } from '@vp/contracts';
import type { Db } from '@vp/db';
import { insertProduction } from '@vp/productions';
import { productionWorkflows, productionWorkflowSettings } from '@vp/temporal-client';
import { seedAccount, test, testConfig, waitFor } from '@vp/testing';
import { startTestWorkers } from './testing/test-workers.ts';

/**
 * Greenlight links by e-mail through a real SMTP server: the worker as it runs, with SMTP_URL
 * pointing at a local `smtp-server`. What is checked is what the server was asked and received,
 * and the `link_emails` rows, not which workflow or step sent them.
 */

type Rcpt = { address: string; code: number };
const asked: Rcpt[] = [];
const received: { to: string[]; text: string }[] = [];
/** A message as its reader sees it: quoted-printable soft breaks joined and escapes decoded. */
const readable = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
/** Mailboxes answering 452 (full, try later) to their first RCPT TO; then accepting. */
const fullOnce = new Set<string>();
let server: SMTPServer;
let port: number;

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo({ address }, _session, callback) {
      const refuse = (code: number, message: string) => {
        asked.push({ address, code });
        callback(Object.assign(new Error(message), { responseCode: code }));
      };
      if (address.startsWith('gone-')) return refuse(550, '5.1.1 No such mailbox');
      if (fullOnce.delete(address)) return refuse(452, '4.2.2 Mailbox full, try later');
      asked.push({ address, code: 250 });
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), text: readable(Buffer.concat(chunks).toString('utf8')) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

type Env = { config: ReturnType<typeof testConfig>; client: Client; db: Db };

const it = test.extend('env', { scope: 'file' }, async ({ database }, { onCleanup }): Promise<Env> => {
  // No mailer handed in: the worker makes its own from SMTP_URL, as it does when deployed.
  const { config, client, close } = await startTestWorkers(database, { env: { SMTP_URL: `smtp://127.0.0.1:${port}` } });
  onCleanup(close);
  return { config, client, db: database.db };
});

/** A production of `owner`'s workspace, left to the worker: it writes the pitch, which is then e-mailed. */
async function startProduction(env: Env, owner: { account: { id: string }; workspace: { id: string } }) {
  const workspace = await env.db.workspace.findUniqueOrThrow({ where: { id: owner.workspace.id } });
  const { production } = await insertProduction(env.db, {
    workspace, createdBy: owner.account.id, actor: { actor: 'key:test', actorName: 'Test' }, sourceKind: 'api', greenlightMode: 'manual',
    brief: Brief.parse({ intent: 'Announce faster exports in release 2.4', format: { durationMs: 10_000 } }),
  });
  await productionWorkflows(env.client, productionWorkflowSettings(env.config)).start({ productionId: production.id, workspaceId: production.workspaceId, greenlightMode: 'manual' });
  return production.id;
}

/**
 * Whether any workflow on this file's task queues still has an e-mail step under way or waiting
 * for its retry (a pitch's storyboard waits for a render worker, which this file does not run).
 */
async function anyStepPending(env: Env): Promise<boolean> {
  const queues = (Object.keys(TASK_QUEUES) as TaskQueueName[]).map((name) => `'${taskQueue(name, env.config.temporal.taskQueuePrefix)}'`);
  for await (const workflow of env.client.workflow.list({ query: `TaskQueue IN (${queues.join(', ')}) AND ExecutionStatus = 'Running'` })) {
    const { raw } = await env.client.workflow.getHandle(workflow.workflowId, workflow.runId).describe();
    if (raw.pendingActivities?.some((activity) => activity.activityType?.name !== 'drawStoryboard')) return true;
  }
  return false;
}

const rcptsTo = (address: string) => asked.filter((r) => r.address === address).map((r) => r.code);

describe('greenlight links by e-mail, through a real SMTP server', () => {
  it('go to the owner and each editor once the pitch is ready; an address refused for good (550) is recorded and never tried again; one full for now (452) is tried again and sent', { timeout: 120_000 }, async ({ env }) => {
    const tag = Date.now();
    const owner = await seedAccount(env.db, { credits: 100, email: `owner-${tag}@example.test` });
    const member = async (email: string, role: 'editor' | 'viewer') => {
      const { account } = await createAccount(env.db, { email });
      await setMember(env.db, { workspaceId: owner.workspace.id, accountId: account.id, role });
      return account.email;
    };
    const gone = await member(`gone-${tag}@example.test`, 'editor');
    const full = await member(`full-${tag}@example.test`, 'editor');
    const viewer = await member(`viewer-${tag}@example.test`, 'viewer');
    fullOnce.add(full);

    const productionId = await startProduction(env, owner);
    const rows = () => env.db.linkEmail.findMany({ where: { productionId }, orderBy: { email: 'asc' } });
    await waitFor(async () => (await rows()).map((row) => row.status).join() === 'sent,refused,sent', {
      what: 'the owner\'s and the full mailbox\'s e-mails sent, the gone one refused', timeoutMs: 90_000, intervalMs: 200,
    });
    // Nothing is left to try: the e-mails' step (wherever it runs) has ended.
    await waitFor(async () => !(await anyStepPending(env)), { what: 'every step to have ended', timeoutMs: 30_000, intervalMs: 200 });

    expect((await rows()).map(({ email, status, error }) => ({ email, status, error }))).toEqual([
      { email: full, status: 'sent', error: null },
      { email: gone, status: 'refused', error: expect.stringMatching(/550 5\.1\.1 No such mailbox/) },
      { email: owner.account.email, status: 'sent', error: null },
    ]);
    expect(rcptsTo(owner.account.email)).toEqual([250]);
    expect(rcptsTo(gone)).toEqual([550]);
    expect(rcptsTo(full)).toEqual([452, 250]);
    expect(rcptsTo(viewer)).toEqual([]);

    // What arrived: one message to each, with links of their own.
    const mine = received.filter((message) => message.text.includes(productionId));
    expect(mine.map((message) => message.to).sort()).toEqual([[full], [owner.account.email]]);
    for (const message of mine) {
      expect(message.text).toMatch(/^Subject: Pitch ready: /m);
      expect(message.text).toMatch(/\/go\/[^\s?]+\?action=greenlight/);
    }
  });
});
