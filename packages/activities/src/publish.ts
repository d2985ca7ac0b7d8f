import type { SubscribableEventType } from '@vp/contracts';
import type { Db, Prisma } from '@vp/db';
import type { ProductionWithPitch } from '@vp/productions';
import type { WebhookWorkflows } from '@vp/temporal-client';
import { pendingDeliveriesOf, recordEvent, type WebhookSettings } from '@vp/webhooks';

export type StepRef = { productionId: string; stepKey: string };

/**
 * Publishes the events of production steps, as a transactional outbox: the event and its
 * deliveries are recorded in the step's own transaction (`recorder`), then each delivery's
 * workflow is started (`dispatch`) under the delivery's id. A retried step records nothing
 * new and starts nothing twice; a step whose dispatch was lost is healed by its retry.
 */
export type EventPublisher = {
  recorder(type: SubscribableEventType, step: StepRef): (tx: Prisma.TransactionClient, production: ProductionWithPitch) => Promise<void>;
  dispatch(step: StepRef): Promise<void>;
};

export type EventPublisherDeps = { db: Db; deliveries: WebhookWorkflows; settings: WebhookSettings };

export function createEventPublisher({ db, deliveries, settings }: EventPublisherDeps): EventPublisher {
  return {
    recorder: (type, step) => (tx, production) =>
      recordEvent(tx, { type, production, sourceKey: step.stepKey }, { appUrl: settings.appUrl, enabled: settings.enabled }),

    async dispatch(step) {
      const pending = await pendingDeliveriesOf(db, step.stepKey);
      await Promise.all(pending.map((delivery) => deliveries.startDelivery(delivery)));
    },
  };
}
