import type { Beside } from '@vp/app/testing';
import { createRenderWorker, createStoryboardWorker, runRenderWorker } from '@vp/render-worker';
import { startTestWorkers } from '@vp/worker/testing';

/**
 * The real workers beside a test app, on its task queues and settings: pitches are written,
 * greenlights answered; with `render`, a render worker makes the videos too.
 */
export function withWorkers(options: { render?: boolean } = {}): Beside {
  return async ({ config, temporal, database, blobs }) => {
    const workers = await startTestWorkers(database, { config, temporal });
    const stop = new AbortController();
    const renderDeps = { config, connection: temporal.nativeConnection, db: database.db, blobs };
    const rendering = options.render && runRenderWorker([
      await createRenderWorker({ ...renderDeps, workflowBundle: temporal.workflowBundle }), await createStoryboardWorker(renderDeps),
    ], stop.signal);
    return {
      close: async () => {
        stop.abort();
        await Promise.all([rendering, workers.close()]);
      },
    };
  };
}
