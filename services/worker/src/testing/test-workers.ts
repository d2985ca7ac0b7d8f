import type { Config } from '@vp/config';
import { workflowIds } from '@vp/contracts';
import type { Db } from '@vp/db';
import { createBuiltinWriter, type PitchWriter } from '@vp/pitch';
import { connectTemporal, testConfig } from '@vp/testing';
import { createWorkers, runWorkers, type WorkerDeps } from '../worker.ts';

type TestTemporal = Awaited<ReturnType<typeof connectTemporal>>;

type TestWorkerOptions = Pick<WorkerDeps, 'mailer' | 'webhookTransport'> & { temporal?: TestTemporal; writer?: PitchWriter }
  & ({ config: Config; env?: never } | { config?: never; env?: Record<string, string> });

/**
 * Real workers on this test file's task queues, over its database and the run's Temporal
 * server, with the built-in pitch writer unless given another; `close` drains them. With `config`, on the task queues
 * it names (a test gateway's); otherwise a test configuration with `env`. With `temporal`, on a
 * connection the caller already holds (and closes); otherwise on one of their own.
 */
export async function startTestWorkers(database: { url: string; db: Db }, options: TestWorkerOptions = {}) {
  const temporal = options.temporal ?? await connectTemporal();
  const config = options.config ?? testConfig(database.url, { PRODUCTION_STEP_TIMEOUT_MS: '5000', ...options.env });
  const workers = await createWorkers({
    config, connection: temporal.nativeConnection, db: database.db, writer: options.writer ?? createBuiltinWriter(), workflowBundle: temporal.workflowBundle, mailer: options.mailer, webhookTransport: options.webhookTransport,
  });
  const stop = new AbortController();
  const running = runWorkers(workers, stop.signal);
  return {
    config, client: temporal.client,
    close: async () => {
      stop.abort();
      await running;
      if (config.webhooks.sweepIntervalMs > 0) await temporal.client.schedule.getHandle(workflowIds.outboxSweep(config.temporal.taskQueuePrefix)).delete();
      if (!options.temporal) await temporal.close();
    },
  };
}
