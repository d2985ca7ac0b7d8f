import type { Db } from '@vp/db';
import type { Mailer } from '@vp/mail';
import { attemptDelivery, createSecretBox, type AttemptDeps, type WebhookSettings } from '@vp/webhooks';
import type { WebhookActivities } from '@vp/workflows/webhook-definitions';
import { sendLinkEmails } from './link-emails.ts';

export type WebhookActivityDeps = {
  db: Db;
  settings: WebhookSettings;
  /** Null: no mail is sent (production without SMTP_URL). */
  mailer: Mailer | null;
  /** Tests only: trust a self-signed receiver, resolve names a scripted way. */
  transport?: AttemptDeps['transport'];
};

/** Activities of the webhooks task queue. The secret is opened here, never passed through a workflow. */
export function createWebhookActivities(deps: WebhookActivityDeps): WebhookActivities {
  const attemptDeps: AttemptDeps = { db: deps.db, settings: deps.settings, box: createSecretBox(deps.settings.serverKey), transport: deps.transport };
  return {
    attemptDelivery: (input) => attemptDelivery(attemptDeps, input),
    async sendLinkEmails(input) {
      if (!deps.mailer) return { sent: 0 };
      return sendLinkEmails({ db: deps.db, mailer: deps.mailer, linkSecret: deps.settings.linkSecret, appUrl: deps.settings.appUrl }, input);
    },
  };
}
