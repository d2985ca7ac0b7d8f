import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import { keyRequestBox, type KeyRequestDeps } from '@vp/accounts';
import { createBlobStore, type BlobStore } from '@vp/blobs';
import type { Config } from '@vp/config';
import type { Db } from '@vp/db';
import type { LinkDeps, ProductionDeps } from '@vp/productions';
import type { OneCallRenderDeps } from '@vp/projects';
import { keyRequestWorkflows, keyRequestWorkflowSettings, productionWorkflows, productionWorkflowSettings, renderFarmWorkflows, webhookWorkflows } from '@vp/temporal-client';
import { webhookSettings, type WebhookDeps } from '@vp/webhooks';

/** What a front door runs on: its configuration, database, Temporal client (connected lazily) and log. */
export type FrontDoorDeps = {
  config: Config;
  db: Db;
  temporal: () => Client;
  log: Logger;
  /** Where videos, posters and images are kept; by default the configured store. */
  blobs?: BlobStore;
};

/**
 * The domain as every front door (the API, the app, the MCP server) calls it: the same
 * functions and workflow clients over this process's database and Temporal, wired in one place.
 */
export function domainDeps(deps: FrontDoorDeps) {
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

export type Domain = ReturnType<typeof domainDeps>;
