import { createBlobStore } from '@vp/blobs';
import type { ProductionDeps } from '@vp/productions';
import type { OneCallRenderDeps } from '@vp/projects';
import { productionWorkflows, productionWorkflowSettings, renderFarmWorkflows, webhookWorkflows } from '@vp/temporal-client';
import { webhookSettings, type WebhookDeps } from '@vp/webhooks';
import type { AppDeps } from './env.ts';

/**
 * The domain as the app calls it: the same functions and workflow Updates the API calls, over
 * this process's database and Temporal (the actor is `user:<accountId>`, `via: 'app'`).
 */
export function appDomain(deps: AppDeps) {
  const { config, db, log } = deps;
  // The client connects lazily (main.ts): pages that only read never need Temporal.
  const client = deps.temporal();
  const taskQueuePrefix = config.temporal.taskQueuePrefix;
  const productions: ProductionDeps = {
    db, appUrl: config.appUrl, pitchesEnabled: config.switches.pitches,
    workflows: productionWorkflows(client, productionWorkflowSettings(config)),
  };
  const settings = webhookSettings(config);
  const webhooks: WebhookDeps = {
    db, settings, deliveries: webhookWorkflows(client, { taskQueuePrefix, ...settings }),
    onUnstarted: (deliveryId, error) => log.warn({ err: error, deliveryId }, 'delivery not started; the outbox sweep will start it'),
  };
  const renders: OneCallRenderDeps = {
    db, blobs: deps.blobs ?? createBlobStore(config.blobs),
    workflows: renderFarmWorkflows(client, { taskQueuePrefix, heartbeatTimeoutMs: config.render.heartbeatTimeoutMs }),
  };
  return { productions, webhooks, renders };
}

export type AppDomain = ReturnType<typeof appDomain>;
