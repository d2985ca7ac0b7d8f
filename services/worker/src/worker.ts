import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { createProductionActivities } from '@vp/activities';
import type { Config } from '@vp/config';
import { taskQueue } from '@vp/contracts';
import type { Db } from '@vp/db';
import type { PitchWriter } from '@vp/pitch';
import { workflowsPath } from '@vp/workflows/path';

export type WorkerDeps = {
  config: Config;
  connection: NativeConnection;
  db: Db;
  writer: PitchWriter;
  /** A pre-built workflow bundle (tests build one per run); otherwise bundled at start. */
  workflowBundle?: WorkerOptions['workflowBundle'];
};

/** The workers of this process: the productions task queue (workflows and their activities). */
export async function createWorkers(deps: WorkerDeps): Promise<Worker[]> {
  const { config } = deps;
  const workflows = deps.workflowBundle ? { workflowBundle: deps.workflowBundle } : { workflowsPath };
  const productions = await Worker.create({
    connection: deps.connection,
    namespace: config.temporal.namespace,
    taskQueue: taskQueue('productions', config.temporal.taskQueuePrefix),
    ...workflows,
    activities: createProductionActivities({ db: deps.db, writer: deps.writer }),
    maxConcurrentActivityTaskExecutions: config.worker.maxConcurrentActivities,
  });
  return [productions];
}

/** Runs workers until the signal aborts, then drains them. */
export async function runWorkers(workers: Worker[], signal: AbortSignal): Promise<void> {
  signal.addEventListener('abort', () => workers.forEach((w) => w.shutdown()), { once: true });
  await Promise.all(workers.map((w) => w.run()));
}
