import { Context } from '@temporalio/activity';
import { ATTEMPT_MARGIN_MS } from '@vp/contracts';
import type { Db } from '@vp/db';
import type { Mailer } from '@vp/mail';
import type { WebhookWorkflows } from '@vp/temporal-client';
import { attemptDelivery, overdueDeliveries, secretBoxFor, unattemptedDeliveries, type AttemptDeps, type WebhookSettings } from '@vp/webhooks';
import type { WebhookActivities } from '@vp/workflows/webhook-definitions';
import { sendLinkEmails } from './link-emails.ts';

export type WebhookActivityDeps = {
  db: Db;
  settings: WebhookSettings;
  /** Null: no mail is sent (production without SMTP_URL). */
  mailer: Mailer | null;
  /** Tests only: trust a self-signed receiver, resolve names a scripted way. */
  transport?: AttemptDeps['transport'];
  /** The outbox sweep: starts deliveries never attempted after `afterMs`. */
  sweep: { deliveries: WebhookWorkflows; afterMs: number };
};

/** Activities of the webhooks task queue. The secret is opened here, never passed through a workflow. */
export function createWebhookActivities(deps: WebhookActivityDeps): WebhookActivities {
  const attemptDeps: AttemptDeps = { db: deps.db, settings: deps.settings, box: secretBoxFor(deps.settings), transport: deps.transport };
  return {
    attemptDelivery: (input) => attemptDelivery(attemptDeps, input),
    async sweepDeliveries() {
      // Switched off on this server, deliveries are held: nothing to start for them.
      if (!deps.settings.enabled) return { started: 0, restarted: 0 };
      const { deliveries, afterMs } = deps.sweep;
      const unattempted = await unattemptedDeliveries(deps.db, new Date(Date.now() - afterMs));
      // One at a time: a sweep is rare and small, and never worth a burst of starts on the server.
      for (const delivery of unattempted) await deliveries.startDelivery(delivery);
      // Overdue past an attempt's whole time as well: a running workflow would have made it by then.
      const overdue = await overdueDeliveries(deps.db, new Date(Date.now() - afterMs - deps.settings.timeoutMs - ATTEMPT_MARGIN_MS));
      let restarted = 0;
      for (const delivery of overdue) if (await deliveries.restartDelivery(delivery, delivery.nextAttempt)) restarted++;
      return { started: unattempted.length, restarted };
    },
    // For the link-e-mail workflows started before pitch e-mails became an activity of the production workflow.
    async sendLinkEmails(input) {
      if (!deps.mailer) return { sent: 0 };
      const context = Context.current();
      return sendLinkEmails({
        db: deps.db, mailer: deps.mailer, linkSecret: deps.settings.linkSecret, appUrl: deps.settings.appUrl,
        attempt: context.info.attempt, heartbeat: () => context.heartbeat(),
      }, input);
    },
  };
}
