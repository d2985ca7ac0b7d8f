import nodemailer from 'nodemailer';
import type { Mailer, MailMessage } from './mailer.ts';

/** Mail through an SMTP server: `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://…:465`. */
export function smtpMailer(options: { url: string; from: string }): Mailer {
  const transport = nodemailer.createTransport(options.url, { from: options.from });
  return {
    async send(message) {
      await transport.sendMail(toNodemailer(message, options.from));
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
  };
}
