import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { keyRequestBox } from '@vp/accounts';
import { createEventPublisher, createKeyRequestActivities, createProductionActivities, createWebhookActivities, type WebhookActivityDeps } from '@vp/activities';
import type { Config } from '@vp/config';
import { taskQueue } from '@vp/contracts';
import type { Db } from '@vp/db';
import { mailerFromConfig, type Mailer } from '@vp/mail';
import type { PitchWriter } from '@vp/pitch';
import { temporalClient, temporalDataConverter, webhookWorkflows } from '@vp/temporal-client';
import { webhookSettings } from '@vp/webhooks';
import { workflowsPath } from '@vp/workflows/path';

export type WorkerDeps = {
  config: Config;
  connection: NativeConnection;
  db: Db;
  writer: PitchWriter;
  /** A pre-built workflow bundle (tests build one per run); otherwise bundled at start. */
  workflowBundle?: WorkerOptions['workflowBundle'];
  /** Mail for greenlight links; by default from the configuration (SMTP, the dev outbox, or none). */
  mailer?: Mailer | null;
  /** Tests only: how deliveries reach a local HTTPS receiver. */
  webhookTransport?: WebhookActivityDeps['transport'];
};

/** The workers of this process: the productions, webhooks and key requests task queues (workflows and their activities). */
export async function createWorkers(deps: WorkerDeps): Promise<Worker[]> {
  const { config } = deps;
  const workflows = deps.workflowBundle ? { workflowBundle: deps.workflowBundle } : { workflowsPath };
  const settings = webhookSettings(config);
  const mailer = deps.mailer === undefined ? mailerFromConfig(config) : deps.mailer;
  // Steps start their webhook deliveries through the worker's own connection, eagerly: the
  // delivery's first workflow task comes back with its start and runs on this worker.
  const client = temporalClient(deps.connection, config);
  const deliveries = webhookWorkflows(client, { taskQueuePrefix: config.temporal.taskQueuePrefix, ...settings, eager: true });
  const events = createEventPublisher({ db: deps.db, deliveries, settings });
  const dataConverter = temporalDataConverter(config.temporal);
  const productions = await Worker.create({
    connection: deps.connection,
    namespace: config.temporal.namespace,
    dataConverter,
    taskQueue: taskQueue('productions', config.temporal.taskQueuePrefix),
    ...workflows,
    activities: createProductionActivities({
      db: deps.db, writer: deps.writer, events, appUrl: config.appUrl, linkSecret: settings.linkSecret,
      // Greenlight links switched off on this server: nobody is e-mailed them.
      mailer: config.switches.links ? mailer : null,
    }),
    maxConcurrentActivityTaskExecutions: config.worker.maxConcurrentActivities,
  });
  const webhooks = await Worker.create({
    connection: deps.connection,
    namespace: config.temporal.namespace,
    dataConverter,
    taskQueue: taskQueue('webhooks', config.temporal.taskQueuePrefix),
    ...workflows,
    activities: createWebhookActivities({
      db: deps.db, settings, mailer, transport: deps.webhookTransport,
      sweep: { deliveries: webhookWorkflows(client, { taskQueuePrefix: config.temporal.taskQueuePrefix, ...settings }), afterMs: config.webhooks.sweepIntervalMs },
    }),
    maxConcurrentActivityTaskExecutions: config.worker.maxConcurrentActivities,
  });
  // Device key requests: their steps seal and wipe the key in the database, never in a payload.
  const keys = await Worker.create({
    connection: deps.connection,
    namespace: config.temporal.namespace,
    dataConverter,
    taskQueue: taskQueue('keys', config.temporal.taskQueuePrefix),
    ...workflows,
    activities: createKeyRequestActivities({ db: deps.db, box: keyRequestBox(config.secrets) }),
    maxConcurrentActivityTaskExecutions: config.worker.maxConcurrentActivities,
  });
  await deliveries.ensureOutboxSweep(config.webhooks.sweepIntervalMs);
  return [productions, webhooks, keys];
}

/** Runs workers until the signal aborts, then drains them. */
export async function runWorkers(workers: Worker[], signal: AbortSignal): Promise<void> {
  signal.addEventListener('abort', () => workers.forEach((w) => w.shutdown()), { once: true });
  await Promise.all(workers.map((w) => w.run()));
}
