import nodemailer from 'nodemailer';
import { RecipientRefused, type Mailer, type MailMessage } from './mailer.ts';

/**
 * How long a send waits on the server, in ms: to connect, for its greeting, and for any answer
 * after that. nodemailer's own (2 minutes, 30 s, 10 minutes) let one send to a server that
 * accepts and then says nothing outlast the try that made it.
 */
export const SMTP_TIMEOUTS = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 30_000 };

/** Mail through an SMTP server: `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://…:465`. */
export function smtpMailer(options: { url: string; from: string; timeouts?: typeof SMTP_TIMEOUTS }): Mailer {
  const transport = nodemailer.createTransport({ url: options.url, ...(options.timeouts ?? SMTP_TIMEOUTS) }, { from: options.from });
  return {
    async send(message) {
      try {
        await transport.sendMail(toNodemailer(message, options.from));
      } catch (error) {
        throw refusedForGood(error) ? new RecipientRefused((error as Error).message, { cause: error }) : error;
      }
    },
  };
}

export function toNodemailer(message: MailMessage, from: string) {
  const domain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';
  return {
    from,
    to: message.to,
    subject: message.subject,
    text: message.text,
    ...(message.html ? { html: message.html } : {}),
    messageId: `<${message.id}@${domain}>`,
    // Sent by the service, not a person (RFC 3834): out-of-office and other auto-replies stay away
    // from the From address; the second is the same request in Exchange's terms.
    headers: { 'Auto-Submitted': 'auto-generated', 'X-Auto-Response-Suppress': 'All' },
  };
}

/**
 * A permanent refusal of the address itself, as nodemailer reports one on RCPT TO: 550, 551 or
 * 553 (no such mailbox, not local, a bad address), or any 5.1.x enhanced status (RFC 3463: the
 * address). 554 or 530 to RCPT TO, 5.7.x (relaying denied, authentication required), and a 5xx
 * to AUTH or MAIL FROM are the setup's, which an operator can fix: those are tried again.
 */
function refusedForGood(error: unknown): boolean {
  const { responseCode, command, response } = error as { responseCode?: number; command?: string; response?: string };
  if (command !== 'RCPT TO' || typeof responseCode !== 'number') return false;
  const enhanced = /\b([245])\.(\d{1,3})\.\d{1,3}\b/.exec(response ?? '');
  if (enhanced) return enhanced[1] === '5' && enhanced[2] === '1';
  return [550, 551, 553].includes(responseCode);
}
