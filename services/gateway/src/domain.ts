import { createBlobStore } from '@vp/blobs';
import type { LinkDeps, ProductionDeps } from '@vp/productions';
import type { OneCallRenderDeps } from '@vp/projects';
import { keyRequestBox, type KeyRequestDeps } from '@vp/accounts';
import { keyRequestWorkflows, keyRequestWorkflowSettings, productionWorkflows, productionWorkflowSettings, renderFarmWorkflows, webhookWorkflows } from '@vp/temporal-client';
import { webhookSettings, type WebhookDeps } from '@vp/webhooks';
import type { GatewayDeps } from './env.ts';

/** The domain as the gateway calls it: the same functions every front door calls, over this process's database and Temporal. */
export function gatewayDomain(deps: GatewayDeps) {
  const { config, db, log } = deps;
  const client = deps.temporal();
  const taskQueuePrefix = config.temporal.taskQueuePrefix;
  const productions: ProductionDeps = {
    db, appUrl: config.appUrl, pitchesEnabled: config.switches.pitches,
    workflows: productionWorkflows(client, productionWorkflowSettings(config)),
  };
  const links: LinkDeps = {
    ...productions, linksEnabled: config.switches.links,
    secrets: [config.secrets.links, ...(config.secrets.previousLinks ? [config.secrets.previousLinks] : [])],
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
  const keyRequests: KeyRequestDeps = {
    db, appUrl: config.appUrl, pendingMs: config.keyRequests.pendingMs, box: keyRequestBox(config.secrets),
    workflows: keyRequestWorkflows(client, keyRequestWorkflowSettings(config)),
  };
  return { productions, links, webhooks, renders, keyRequests };
}

export type GatewayDomain = ReturnType<typeof gatewayDomain>;
