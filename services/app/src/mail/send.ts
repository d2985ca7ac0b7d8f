import type { MailMessage } from '@vp/mail';
import type { AppDeps } from '../env.ts';

/**
 * Sends without holding the request: the page a person sees comes back as fast whatever the mail
 * server does, and whichever e-mail went out. A failed send is logged without the address or
 * the link. In development the link is also printed, for whoever runs `pnpm dev` without a mailbox.
 */
export function sendInBackground(deps: AppDeps, message: MailMessage, link: string | null): void {
  if (deps.config.env === 'development' && link) console.log(`\n  Sign-in link for ${message.to}: ${link}\n`);
  if (!deps.mailer) return;
  deps.mailer.send(message).catch((err: unknown) => deps.log.warn({ err: (err as Error).message, messageId: message.id }, 'sign-in e-mail not sent'));
}
