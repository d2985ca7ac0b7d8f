import type { Client } from '@temporalio/client';
import type { SubscribableEventType } from '@vp/contracts';
import type { Db, Prisma } from '@vp/db';
import type { ProductionWithPitch } from '@vp/productions';
import { pendingDeliveriesOf, recordEvent, type WebhookSettings } from '@vp/webhooks';
import { startLinkEmails, startWebhookDelivery } from '@vp/workflows/webhook-start';

export type StepRef = { productionId: string; stepKey: string };

/**
 * Publishes the events of production steps, as a transactional outbox: the event and its
 * deliveries are recorded in the step's own transaction (`recorder`), then each delivery's
 * workflow is started (`dispatch`) under the delivery's id. A retried step records nothing
 * new and starts nothing twice; a step whose dispatch was lost is healed by its retry.
 */
export type EventPublisher = {
  recorder(type: SubscribableEventType, step: StepRef): (tx: Prisma.TransactionClient, production: ProductionWithPitch) => Promise<void>;
  dispatch(type: SubscribableEventType, step: StepRef): Promise<void>;
  /** E-mails a pitch version's greenlight links to the workspace's owners and editors, once. */
  emailLinks(productionId: string, pitchVersion: number): Promise<void>;
};

export type EventPublisherDeps = {
  db: Db;
  client: Client;
  /**
   * When `client` shares the worker's NativeConnection: each delivery's first workflow task
   * comes back with its start and runs on this worker, saving a round trip through the server.
   */
  eagerStart?: boolean;
  settings: WebhookSettings;
  taskQueuePrefix: string;
  /** Whether link e-mails can be sent (a mailer is configured). */
  mail: boolean;
};

export function createEventPublisher(deps: EventPublisherDeps): EventPublisher {
  const { settings } = deps;
  const mailing = deps.mail && settings.linksEnabled;
  const emailLinks = async (productionId: string, pitchVersion: number) => {
    if (mailing) await startLinkEmails(deps.client, { productionId, pitchVersion }, deps);
  };
  return {
    recorder: (type, step) => (tx, production) =>
      recordEvent(tx, { type, production, sourceKey: step.stepKey }, { appUrl: settings.appUrl, enabled: settings.enabled }),

    async dispatch(type, step) {
      const deliveries = await pendingDeliveriesOf(deps.db, step.stepKey);
      await Promise.all(deliveries.map((id) => startWebhookDelivery(deps.client, id, { taskQueuePrefix: deps.taskQueuePrefix, ...settings, eager: deps.eagerStart })));
      if (type === 'production.pitch_ready' && mailing) {
        // The production workflow waits on this step, so the current version is the one it wrote.
        const { pitchVersion, greenlightMode } = await deps.db.production.findUniqueOrThrow({
          where: { id: step.productionId }, select: { pitchVersion: true, greenlightMode: true },
        });
        // In auto mode nobody is asked to answer: only a refused auto-greenlight leaves the pitch
        // to a person, and the greenlight step e-mails the links then.
        if (pitchVersion && greenlightMode === 'manual') await emailLinks(step.productionId, pitchVersion);
      }
    },

    emailLinks,
  };
}
