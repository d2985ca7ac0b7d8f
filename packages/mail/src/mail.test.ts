import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailerFromConfig, outboxMailer, RecipientRefused, smtpMailer } from './index.ts';
import { SMTP_TIMEOUTS } from './smtp.ts';

type Received = { from: string; to: string[]; raw: string; user: string | undefined };
let server: SMTPServer;
let port: number;
const received: Received[] = [];

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (auth.username === 'mailer' && auth.password === 's3cret') callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    // An address the server knows it cannot deliver to, and one it cannot take right now.
    onRcptTo(address, _session, callback) {
      const reject = (message: string, responseCode: number) => callback(Object.assign(new Error(message), { responseCode }));
      if (address.address.startsWith('nobody@')) reject('5.1.1 No such mailbox', 550);
      else if (address.address.startsWith('busy@')) reject('4.2.2 Mailbox full, try later', 452);
      else if (address.address.startsWith('elsewhere@')) reject('5.7.1 Relay access denied', 554);
      else if (address.address.startsWith('policy@')) reject('5.7.1 Sender not allowed to send here', 550);
      else if (address.address.startsWith('sender@')) reject('5.1.8 <noreply@vps.example.com>: Sender address rejected: Domain not found', 553);
      else if (address.address.startsWith('plain@')) reject('Requested action not taken: mailbox unavailable', 550);
      else if (address.address.startsWith('listed@')) reject('Your IP 5.1.44.2 is listed', 554);
      else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          user: session.user as string | undefined,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const message = { id: 'link-3f1c-2-ada', to: 'ada@example.com', subject: 'Pitch ready: Exports, twice as fast', text: 'Greenlight: https://app.example.com/go/abc?action=greenlight', html: '<p>Greenlight</p>' };
const FROM = 'Video Production Service <no-reply@vps.example.com>';

describe('mail', () => {
  it('goes through a real SMTP server when SMTP_URL is set, authenticated, with a stable Message-ID, marked automatic', async () => {
    const mailer = mailerFromConfig({ env: 'production', mail: { smtpUrl: `smtp://mailer:s3cret@127.0.0.1:${port}`, from: FROM, outboxDir: '/nonexistent' } });
    await mailer!.send(message);
    expect(received).toHaveLength(1);
    const [mail] = received;
    expect(mail).toMatchObject({ from: 'no-reply@vps.example.com', to: ['ada@example.com'], user: 'mailer' });
    expect(mail!.raw).toContain('Subject: Pitch ready: Exports, twice as fast');
    expect(mail!.raw).toContain('Message-ID: <link-3f1c-2-ada@vps.example.com>');
    // Marked as sent by a machine, so that auto-replies are not sent back.
    expect(mail!.raw).toContain('Auto-Submitted: auto-generated');
    expect(mail!.raw).toContain('X-Auto-Response-Suppress: All');
    expect(mail!.raw).toContain('https://app.example.com/go/abc?action=greenlight');
  });

  it('fails loudly when the SMTP server refuses it', async () => {
    const mailer = smtpMailer({ url: `smtp://mailer:wrong@127.0.0.1:${port}`, from: FROM });
    await expect(mailer.send(message)).rejects.toThrow(/Invalid username or password/);
  });

  it('tells an address refused for good (5xx to RCPT TO) from a refusal worth trying again', async () => {
    const mailer = smtpMailer({ url: `smtp://mailer:s3cret@127.0.0.1:${port}`, from: FROM });
    const refused = await mailer.send({ ...message, to: 'nobody@example.com' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RecipientRefused);
    expect((refused as Error).message).toMatch(/550.*No such mailbox/);
    // A mailbox full for now, and refusals that are the setup's (relaying, policy: 5.7.x), are tried again.
    // A 550 with no enhanced status is the address too.
    expect(await mailer.send({ ...message, to: 'plain@example.com' }).catch((error: unknown) => error)).toBeInstanceOf(RecipientRefused);
    // The sender's own address refused at RCPT TO, and numbers that only look like a status, are not.
    for (const to of ['busy@example.com', 'elsewhere@example.com', 'policy@example.com', 'sender@example.com', 'listed@example.com']) {
      const later = await mailer.send({ ...message, to }).catch((error: unknown) => error);
      expect(later, to).toBeInstanceOf(Error);
      expect(later, to).not.toBeInstanceOf(RecipientRefused);
    }
    // A refusal of the sender's own login is the setup's: tried again, not given up on.
    const wrongLogin = await smtpMailer({ url: `smtp://mailer:wrong@127.0.0.1:${port}`, from: FROM }).send(message).catch((error: unknown) => error);
    expect(wrongLogin).not.toBeInstanceOf(RecipientRefused);
  });

  it('gives up on a server that accepts the connection and never greets, within its greeting timeout', async () => {
    const silent = createTcpServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const mailer = smtpMailer({ url: `smtp://127.0.0.1:${(silent.address() as AddressInfo).port}`, from: FROM, timeouts: { ...SMTP_TIMEOUTS, greetingTimeout: 300 } });
      // The server never greets: the send ends by the greeting's time limit, and says so.
      await expect(mailer.send(message)).rejects.toThrow(/greeting/i);
    } finally {
      silent.close();
    }
    // A try of the link e-mails must report each recipient within 2 minutes: a send that hangs at any step ends well inside them.
    expect(SMTP_TIMEOUTS.connectionTimeout + SMTP_TIMEOUTS.greetingTimeout + SMTP_TIMEOUTS.socketTimeout).toBeLessThan(120_000);
  });

  it('is written to the outbox folder in development, one file per message', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vp-outbox-'));
    try {
      const mailer = mailerFromConfig({ env: 'development', mail: { from: FROM, outboxDir: dir } });
      await mailer!.send(message);
      await outboxMailer({ dir, from: FROM }).send(message);
      const files = await readdir(dir);
      expect(files).toEqual(['link-3f1c-2-ada.eml']);
      const eml = await readFile(join(dir, files[0]!), 'utf8');
      expect(eml).toContain('To: ada@example.com');
      expect(eml).toContain('Subject: Pitch ready: Exports, twice as fast');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('is not sent in production (or tests) without SMTP_URL', () => {
    expect(mailerFromConfig({ env: 'production', mail: { from: FROM, outboxDir: '.data/outbox' } })).toBeNull();
    expect(mailerFromConfig({ env: 'test', mail: { from: FROM, outboxDir: '.data/outbox' } })).toBeNull();
  });
});
