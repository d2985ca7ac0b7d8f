import type { Db, RateLimiter } from '@vp/db';
import { createTestGateway } from '@vp/gateway/testing';
import { createRenderWorker, createStoryboardWorker, runRenderWorker } from '@vp/render-worker';
import type { WorkerDeps } from '@vp/worker';
import { startTestWorkers } from '@vp/worker/testing';

/**
 * The gateway plus real workers on this file's task queues: the whole service over the test
 * file's database and the run's Temporal server. With `render`, a render worker too, and its
 * storyboard worker unless `storyboard: false` (stills fetch the brief's media as the render does).
 */
export async function createTestStack(
  database: { url: string; db: Db },
  options: { env?: Record<string, string>; worker?: Pick<WorkerDeps, 'mailer' | 'webhookTransport'>; render?: boolean; storyboard?: boolean; limiter?: RateLimiter } = {},
) {
  const gateway = await createTestGateway(database, { env: { PRODUCTION_STEP_TIMEOUT_MS: '5000', ...options.env }, limiter: options.limiter });
  const workers = await startTestWorkers(database, { config: gateway.config, temporal: gateway.temporal, ...options.worker });
  const stop = new AbortController();
  const renderDeps = { config: gateway.config, connection: gateway.temporal.nativeConnection, db: database.db, blobs: gateway.blobs };
  const rendering = options.render && runRenderWorker([
    await createRenderWorker({ ...renderDeps, workflowBundle: gateway.temporal.workflowBundle }),
    ...(options.storyboard ?? true ? [await createStoryboardWorker(renderDeps)] : []),
  ], stop.signal);
  return {
    ...gateway,
    close: async () => {
      stop.abort();
      await Promise.all([rendering, workers.close()]);
      await gateway.close();
    },
  };
}

