import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { waitFor } from '@vp/testing';

export type CaughtMail = { to: string[]; subject: string; text: string; raw: string };

/**
 * A real SMTP server on a free port that keeps what the app's real mailer sends it: tests read
 * sign-in links and invitations out of the messages, as a person would from a mailbox.
 */
export async function startMailCatcher() {
  const messages: CaughtMail[] = [];
  const server = new SMTPServer({
    authOptional: true, disabledCommands: ['STARTTLS'], logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        messages.push({ to: session.envelope.rcptTo.map((r) => r.address), subject: /^Subject: (.*)$/m.exec(raw)?.[1] ?? '', text: bodyText(raw), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    smtpUrl: `smtp://127.0.0.1:${port}`,
    messages,
    /** The next message to `to` after the `seen` first ones (default: any not read before). */
    async next(to: string, seen = messages.filter((m) => m.to.includes(to)).length): Promise<CaughtMail> {
      return waitFor(() => messages.filter((m) => m.to.includes(to))[seen], { what: `an e-mail to ${to}`, timeoutMs: 15_000 });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type MailCatcher = Awaited<ReturnType<typeof startMailCatcher>>;

/** The first address in a message that leads to the app's sign-in link page. */
export function signInLinkIn(mail: CaughtMail): string {
  const link = /https?:\/\/\S+\/sign-in\/link\?token=[\w%-]+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`No sign-in link in: ${mail.text}`);
  return link;
}

/** The plain-text body, quoted-printable undone (long lines come soft-wrapped). */
function bodyText(raw: string): string {
  const body = raw.slice(raw.search(/\r?\n\r?\n/) + 2);
  if (!/^Content-Transfer-Encoding: quoted-printable/im.test(raw)) return body;
  return body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
