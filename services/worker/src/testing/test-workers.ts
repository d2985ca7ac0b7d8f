import { createBuiltinWriter } from '@vp/pitch';
import { connectTemporal, testConfig } from '@vp/testing';
import type { Db } from '@vp/db';
import { createWorkers, runWorkers, type WorkerDeps } from '../worker.ts';

/**
 * Real workers on this test file's task queues, over its database and the run's Temporal
 * server, with the built-in pitch writer; `close` drains them.
 */
export async function startTestWorkers(
  database: { url: string; db: Db },
  env: Record<string, string> = {},
  extra: Pick<WorkerDeps, 'mailer' | 'webhookTransport'> = {},
) {
  const temporal = await connectTemporal();
  const config = testConfig(database.url, { PRODUCTION_STEP_TIMEOUT_MS: '5000', ...env });
  const workers = await createWorkers({
    config, connection: temporal.nativeConnection, db: database.db, writer: createBuiltinWriter(), workflowBundle: temporal.workflowBundle, ...extra,
  });
  const stop = new AbortController();
  const running = runWorkers(workers, stop.signal);
  return {
    config, client: temporal.client,
    close: async () => {
      stop.abort();
      await running;
      await temporal.close();
    },
  };
}
