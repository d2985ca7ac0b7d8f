import type { Mailer } from './mailer.ts';
import { outboxMailer } from './outbox.ts';
import { smtpMailer } from './smtp.ts';

export { RecipientRefused, type Mailer, type MailMessage } from './mailer.ts';
export { outboxMailer } from './outbox.ts';
export { smtpMailer } from './smtp.ts';

/**
 * SMTP when SMTP_URL is set; otherwise, in development, the local outbox folder.
 * Null elsewhere (production or tests without SMTP_URL): no e-mail is sent.
 */
export function mailerFromConfig(config: { env: string; mail: { smtpUrl?: string; from: string; outboxDir: string } }): Mailer | null {
  if (config.mail.smtpUrl) return smtpMailer({ url: config.mail.smtpUrl, from: config.mail.from });
  if (config.env !== 'development') return null;
  return outboxMailer({ dir: config.mail.outboxDir, from: config.mail.from });
}
