import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import { ATTEMPT_MARGIN_MS } from '@vp/contracts';
import type { Db } from '@vp/db';
import type { Mailer } from '@vp/mail';
import { attemptDelivery, overdueDeliveries, secretBoxFor, unattemptedDeliveries, type AttemptDeps, type WebhookSettings } from '@vp/webhooks';
import type { WebhookActivities } from '@vp/workflows/webhook-definitions';
import { restartWebhookDelivery, startWebhookDelivery } from '@vp/workflows/webhook-start';
import { sendLinkEmails } from './link-emails.ts';

export type WebhookActivityDeps = {
  db: Db;
  settings: WebhookSettings;
  /** Null: no mail is sent (production without SMTP_URL). */
  mailer: Mailer | null;
  /** Tests only: trust a self-signed receiver, resolve names a scripted way. */
  transport?: AttemptDeps['transport'];
  /** The outbox sweep: starts deliveries never attempted after `afterMs`, with this client. */
  sweep: { client: Client; taskQueuePrefix: string; afterMs: number };
};

/** Activities of the webhooks task queue. The secret is opened here, never passed through a workflow. */
export function createWebhookActivities(deps: WebhookActivityDeps): WebhookActivities {
  const attemptDeps: AttemptDeps = { db: deps.db, settings: deps.settings, box: secretBoxFor(deps.settings), transport: deps.transport };
  return {
    attemptDelivery: (input) => attemptDelivery(attemptDeps, input),
    async sweepDeliveries() {
      // Switched off on this server, deliveries are held: nothing to start for them.
      if (!deps.settings.enabled) return { started: 0, restarted: 0 };
      const { client, taskQueuePrefix, afterMs } = deps.sweep;
      const settings = { taskQueuePrefix, ...deps.settings };
      const ids = await unattemptedDeliveries(deps.db, new Date(Date.now() - afterMs));
      // One at a time: a sweep is rare and small, and never worth a burst of starts on the server.
      for (const id of ids) await startWebhookDelivery(client, id, settings);
      // Overdue past an attempt's whole time as well: a running workflow would have made it by then.
      const overdue = await overdueDeliveries(deps.db, new Date(Date.now() - afterMs - deps.settings.timeoutMs - ATTEMPT_MARGIN_MS));
      let restarted = 0;
      for (const { id, nextAttempt } of overdue) if (await restartWebhookDelivery(client, id, nextAttempt, settings)) restarted++;
      return { started: ids.length, restarted };
    },
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
