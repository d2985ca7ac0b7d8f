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
 * A permanent refusal of the recipient's address, as nodemailer reports one on RCPT TO: a 5xx
 * reply whose enhanced status is 5.1.x (RFC 3463: the address), or, with none, 550, 551 or 553.
 * What is not the recipient is the setup's, which an operator can fix, and is tried again: the
 * sender's address refused at RCPT TO (5.1.7, 5.1.8, "Sender address rejected", as Postfix
 * words it), relaying or policy (5.7.x, 554), and any 5xx to AUTH or MAIL FROM.
 */
function refusedForGood(error: unknown): boolean {
  const { responseCode, command, response } = error as { responseCode?: number; command?: string; response?: string };
  if (command !== 'RCPT TO' || typeof responseCode !== 'number' || responseCode < 500 || responseCode > 599) return false;
  const text = response ?? '';
  if (/sender address rejected/i.test(text)) return false;
  // The enhanced status follows the reply code ("550 5.1.1 …", "550-5.1.1 …"), not an address or version further on.
  const enhanced = /^\d{3}[ -]([245])\.(\d{1,3})\.(\d{1,3})(?![\d.])/.exec(text);
  if (enhanced) return enhanced[1] === '5' && enhanced[2] === '1' && enhanced[3] !== '7' && enhanced[3] !== '8';
  return [550, 551, 553].includes(responseCode);
}
