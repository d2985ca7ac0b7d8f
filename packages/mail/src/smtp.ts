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
 * A permanent refusal of the address itself (550 no such mailbox, 553 bad address): nodemailer
 * reports it on RCPT TO. A 5xx elsewhere (to AUTH, to MAIL FROM) is the server's setup, which an
 * operator can fix: that is tried again.
 */
function refusedForGood(error: unknown): boolean {
  const { responseCode, command } = error as { responseCode?: number; command?: string };
  return command === 'RCPT TO' && typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600;
}
