import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { sendNoticeEmails, type NoticeKind } from '@vp/activities';
import { chooseEmails, createAccount, setMember } from '@vp/accounts';
import type { Stage } from '@vp/contracts';
import { mailerFromConfig } from '@vp/mail';
import { seedAccount, test, waitFor } from '@vp/testing';
import { makeImage, startMediaServer } from '@vp/gateway/testing/media';
import { json, withKey } from '@vp/gateway/testing';
import { createTestStack } from '../stack.ts';

/**
 * "Video delivered" and "production failed" e-mails through a real SMTP server, made by the
 * whole service (gateway, workers, a real render worker): what is checked is what the server
 * was asked and received, and the `notice_emails` rows.
 */

type Rcpt = { address: string; code: number };
const asked: Rcpt[] = [];
const received: { to: string[]; subject: string; text: string }[] = [];
const readable = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
/** Mailboxes answering 452 (full, try later) to their first RCPT TO of a notice; then accepting. */
const fullOnce = new Set<string>();
let server: SMTPServer;
let port: number;
let media: Awaited<ReturnType<typeof startMediaServer>>;

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true, disabledCommands: ['STARTTLS', 'AUTH'], logger: false,
    onRcptTo({ address }, _session, callback) {
      // Only once the production has ended: the pitch e-mails before are not held up.
      if (fullOnce.delete(address)) {
        asked.push({ address, code: 452 });
        return callback(Object.assign(new Error('4.2.2 Mailbox full, try later'), { responseCode: 452 }));
      }
      asked.push({ address, code: 250 });
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const text = readable(Buffer.concat(chunks).toString('utf8'));
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), subject: /^Subject: (.*)$/m.exec(text)?.[1] ?? '', text });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.server.address() as AddressInfo).port;
  media = await startMediaServer({ '/down.png': { status: 503 }, '/shot.png': { type: 'image/png', body: await makeImage('png', '1280x720') } });
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await media.close();
});

const it = test.extend('stack', { scope: 'file' }, async ({ database }, { onCleanup }) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'vp-notices-'));
  // No mailer handed in: the worker makes its own from SMTP_URL, as it does when deployed.
  const stack = await createTestStack(database, {
    render: true, env: { DATA_DIR: dataDir, ALLOW_PRIVATE_URLS: 'true', RENDER_HEARTBEAT_TIMEOUT_MS: '20000', SMTP_URL: `smtp://127.0.0.1:${port}` },
  });
  onCleanup(async () => {
    await stack.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  return stack;
});

type Stack = Awaited<ReturnType<typeof createTestStack>>;

/** An owner with credits, an editor, an editor who turned both notices off, and a viewer. */
async function team(stack: Stack, db: Parameters<typeof seedAccount>[0], tag: string) {
  const owner = await seedAccount(db, { credits: 100, email: `owner-${tag}@example.test` });
  const member = async (name: string, role: 'editor' | 'viewer') => {
    const { account } = await createAccount(db, { email: `${name}-${tag}@example.test` });
    await setMember(db, { workspaceId: owner.workspace.id, accountId: account.id, role });
    return account;
  };
  const editor = await member('editor', 'editor');
  const quiet = await member('quiet', 'editor');
  await chooseEmails(db, { accountId: quiet.id, actor: `user:${quiet.id}`, via: 'app' }, { wanted: ['pitch_ready'] });
  const viewer = await member('viewer', 'viewer');
  const call = (path: string, init: { json?: unknown } = {}) => stack.app.request(path, withKey(owner.apiKey, init));
  const reach = (id: string, stage: Stage) => waitFor(async () => {
    const body = await json(await call(`/v1/productions/${id}`));
    return body.production.stage === stage ? body.production : undefined;
  }, { what: `stage ${stage}`, timeoutMs: 170_000, intervalMs: 250 });
  /** A greenlit production of this brief, its pitch e-mails (owner and both editors) sent before the editor's mailbox fills. */
  const greenlit = async (brief: Record<string, unknown>) => {
    const { production } = await json(await call('/v1/productions', { json: { brief: { format: { durationMs: 5000 }, ...brief } } }));
    await reach(production.id, 'pitch_ready');
    await waitFor(async () => (await db.linkEmail.count({ where: { productionId: production.id, status: 'sent' } })) === 3, { what: 'the pitch e-mails', timeoutMs: 60_000 });
    fullOnce.add(editor.email);
    expect((await call(`/v1/productions/${production.id}/greenlight`, { json: {} })).status).toBe(200);
    return production.id as string;
  };
  return { owner: owner.account, editor, quiet, viewer, greenlit, reach, workspaceId: owner.workspace.id };
}

/** The notices of one production as each address received them: subject and text. */
const noticesOf = (productionId: string) => received.filter((m) => m.text.includes(productionId) && /^(Video delivered|Production failed):/.test(m.subject));
const rcptsTo = (address: string, since: number) => asked.slice(since).filter((r) => r.address === address).map((r) => r.code);

async function settled(db: Parameters<typeof seedAccount>[0], productionId: string, kind: NoticeKind) {
  const rows = () => db.noticeEmail.findMany({ where: { productionId, kind }, orderBy: { email: 'asc' } });
  await waitFor(async () => (await rows()).map((r) => r.status).join() === 'sent,sent', { what: `${kind} e-mails sent`, timeoutMs: 120_000, intervalMs: 250 });
  return rows();
}

describe('notices by e-mail, through a real SMTP server', () => {
  it('"video delivered" goes once to the owner and each editor who wants it (the share link, the page, the credits), none to a viewer; a retry sends no second', { timeout: 400_000 }, async ({ stack, database: { db } }) => {
    const people = await team(stack, db, `d${Date.now()}`);
    const since = asked.length;
    const id = await people.greenlit({ intent: 'Show off the new dashboard in release 2.4', media: [{ id: 'shot', kind: 'image', url: `${media.url}/shot.png`, name: 'Dashboard' }] });
    const production = await people.reach(id, 'delivered');
    const rows = await settled(db, id, 'video_delivered');
    expect(rows.map((r) => [r.email, r.status, r.attempt])).toEqual([[people.editor.email, 'sent', 2], [people.owner.email, 'sent', 1]]);

    const notices = noticesOf(id);
    expect(notices.map((m) => m.to).sort()).toEqual([[people.editor.email], [people.owner.email]]);
    for (const message of notices) {
      expect(message.subject).toMatch(/^Video delivered: /);
      expect(message.text).toContain(production.delivery.shareUrl);
      expect(message.text).toContain(production.pageUrl);
      expect(message.text).toContain(`${production.creditsCharged} credits charged.`);
    }
    // The editor's mailbox was full at the first try: asked twice; the owner once; the others never.
    expect(rcptsTo(people.editor.email, since).slice(-2)).toEqual([452, 250]);
    expect(rcptsTo(people.quiet.email, since).filter((code) => code === 250)).toHaveLength(1); // its pitch e-mail, no notice
    expect(rcptsTo(people.viewer.email, since)).toEqual([]);

    // Another try of the activity (its answer lost, say) sends nobody a second one.
    const again = await sendNoticeEmails({ db, mailer: mailerFromConfig(stack.config)!, appUrl: stack.config.appUrl, attempt: 9 }, { productionId: id, kind: 'video_delivered' });
    expect(again).toEqual({ sent: 0 });
    expect(noticesOf(id)).toHaveLength(2);
  });

  it('"production failed" gives the reason in words and the refund, once each to the owner and editors who want it', { timeout: 400_000 }, async ({ stack, database: { db } }) => {
    const people = await team(stack, db, `f${Date.now()}`);
    const id = await people.greenlit({ intent: 'Show off the new dashboard in release 2.4', media: [{ id: 'down', kind: 'image', url: `${media.url}/down.png`, name: 'Down screenshot' }] });
    const production = await people.reach(id, 'failed');
    await settled(db, id, 'production_failed');
    const refund = await db.creditEntry.findFirstOrThrow({ where: { productionId: id, kind: 'refund' } });
    expect(refund.amount).toBeGreaterThan(0);
    const notices = noticesOf(id);
    expect(notices.map((m) => m.to).sort()).toEqual([[people.editor.email], [people.owner.email]]);
    for (const message of notices) {
      expect(message.subject).toMatch(/^Production failed: /);
      expect(message.text).toContain(production.error);
      expect(message.text).toContain(`Your ${refund.amount} credits were refunded.`);
      expect(message.text).toContain(production.pageUrl);
    }
    expect(received.some((m) => m.to.includes(people.quiet.email) && m.text.includes(id) && m.subject.startsWith('Production failed'))).toBe(false);
    const again = await sendNoticeEmails({ db, mailer: mailerFromConfig(stack.config)!, appUrl: stack.config.appUrl, attempt: 9 }, { productionId: id, kind: 'production_failed' });
    expect(again).toEqual({ sent: 0 });
    expect(noticesOf(id)).toHaveLength(2);
  });
});
