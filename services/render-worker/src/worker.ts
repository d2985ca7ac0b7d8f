import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { createRenderFarmActivities, createStoryboardActivities } from '@vp/activities/render-farm';
import type { BlobStore } from '@vp/blobs';
import type { Config } from '@vp/config';
import { taskQueue } from '@vp/contracts';
import type { Db } from '@vp/db';
import { productionWorkflows, productionWorkflowSettings, temporalClient, temporalDataConverter } from '@vp/temporal-client';
import { workflowsPath } from '@vp/workflows/path';

export type RenderWorkerDeps = {
  config: Config;
  connection: NativeConnection;
  db: Db;
  blobs: BlobStore;
  /** A pre-built workflow bundle (tests build one per run); otherwise bundled at start. */
  workflowBundle?: WorkerOptions['workflowBundle'];
};

/**
 * The render farm's worker: the render task queue, its renders (RENDER_CONCURRENCY at once,
 * one per 2 cores) and the render and export workflows with their short steps.
 */
export async function createRenderWorker(deps: RenderWorkerDeps): Promise<Worker> {
  const { config } = deps;
  const client = temporalClient(deps.connection, config);
  // Renders report their phases to their production's workflow, which records them.
  const { reportProgress } = productionWorkflows(client, productionWorkflowSettings(config));
  return Worker.create({
    connection: deps.connection,
    namespace: config.temporal.namespace,
    dataConverter: temporalDataConverter(config.temporal),
    taskQueue: taskQueue('render', config.temporal.taskQueuePrefix),
    ...(deps.workflowBundle ? { workflowBundle: deps.workflowBundle } : { workflowsPath }),
    activities: createRenderFarmActivities({
      db: deps.db, blobs: deps.blobs, reportProgress, workDir: config.render.workDir, stallMs: config.render.stallMs,
      appUrl: config.appUrl, allowPrivateUrls: config.allowPrivateUrls,
    }),
    maxConcurrentActivityTaskExecutions: config.render.concurrency,
    // Heartbeats reach the server every second at most: a cancel stops a render within a second or two.
    maxHeartbeatThrottleInterval: '1 second',
    // A render takes one to three minutes, and one cancelled by a stop counts as a failed try: a
    // worker told to stop takes no new work and lets its renders finish (docker-compose.yml gives
    // it a little longer than this before it kills it).
    shutdownGraceTime: config.render.shutdownGraceMs,
  });
}

/**
 * The storyboard's worker, in the render worker's process: its own task queue and its own slots
 * (STORYBOARD_CONCURRENCY), so that a pitch's stills never wait behind a video, and a video's
 * render slots are never taken by stills. A still is a few hundred milliseconds of drawing.
 */
export async function createStoryboardWorker(deps: Omit<RenderWorkerDeps, 'workflowBundle'>): Promise<Worker> {
  const { config } = deps;
  return Worker.create({
    connection: deps.connection,
    namespace: config.temporal.namespace,
    dataConverter: temporalDataConverter(config.temporal),
    taskQueue: taskQueue('storyboard', config.temporal.taskQueuePrefix),
    activities: createStoryboardActivities({
      db: deps.db, blobs: deps.blobs, workDir: config.render.workDir, allowPrivateUrls: config.allowPrivateUrls,
      baseUrl: config.baseUrl, urlSecret: config.secrets.urls,
    }),
    maxConcurrentActivityTaskExecutions: config.render.storyboardConcurrency,
    shutdownGraceTime: '10 seconds',
  });
}

/** Runs the workers until the signal aborts, then drains them. */
export async function runRenderWorker(workers: Worker | Worker[], signal: AbortSignal): Promise<void> {
  const all = Array.isArray(workers) ? workers : [workers];
  signal.addEventListener('abort', () => all.forEach((worker) => worker.shutdown()), { once: true });
  await Promise.all(all.map((worker) => worker.run()));
}
