import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject } from 'vitest';
import { createBlobStore } from '@vp/blobs';
import { Brief, PHASES, QueueStatus } from '@vp/contracts';
import { createBuiltinWriter } from '@vp/pitch';
import { createProduction } from '@vp/productions';
import { connectTemporal, seedAccount, test, testConfig, waitFor } from '@vp/testing';
import { createWorkers, runWorkers } from '@vp/worker';
import { greenlightUpdate } from '@vp/workflows/definitions';
import { productionWorkflowStart } from '@vp/workflows/start';
import { createRenderWorker, runRenderWorker } from './worker.ts';

const RENDER_WORKER = fileURLToPath(new URL('./testing/render-worker-process.ts', import.meta.url));

describe('a render worker stopped mid-render (SIGTERM, as a deploy stops it)', () => {
  test('finishes the render it has before it exits: the try is not lost', async ({ database }) => {
    const { db } = database;
    const dataDir = await mkdtemp(join(tmpdir(), 'vp-render-stop-'));
    const temporal = await connectTemporal();
    const config = testConfig(database.url, { DATA_DIR: dataDir, PRODUCTION_STEP_TIMEOUT_MS: '5000', RENDER_HEARTBEAT_TIMEOUT_MS: '10000' });
    const stop = new AbortController();
    const running: Promise<unknown>[] = [];
    const child = spawn(process.execPath, ['--import', 'tsx', RENDER_WORKER, inject('workflowBundlePath')], {
      env: {
        PATH: process.env.PATH, LOG_LEVEL: 'silent', DATABASE_URL: database.url, TEMPORAL_ADDRESS: inject('temporalAddress'),
        TEMPORAL_TASK_QUEUE_PREFIX: config.temporal.taskQueuePrefix, DATA_DIR: dataDir,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const output: string[] = [];
      child.stdout.on('data', (chunk) => output.push(String(chunk)));
      const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('exit', (code, signal) => resolve([code, signal])));
      await waitFor(() => output.join('').includes('ready'), { what: 'the render worker process', timeoutMs: 60_000 });

      const workers = await createWorkers({ config, connection: temporal.nativeConnection, db, writer: createBuiltinWriter(), workflowBundle: temporal.workflowBundle });
      running.push(runWorkers(workers, stop.signal));

      const { account, workspace } = await seedAccount(db, { credits: 100 });
      const { production } = await createProduction(db, {
        workspace: await db.workspace.findUniqueOrThrow({ where: { id: workspace.id } }),
        createdBy: account.id, actor: { actor: 'key:test', actorName: 'Test' }, sourceKind: 'api', greenlightMode: 'manual',
        // Long enough that its render outlasts the 10 s the worker used to wait.
        brief: Brief.parse({ intent: 'Announce faster exports in release 2.4', format: { durationMs: 30_000 } }),
      });
      const read = () => db.production.findUniqueOrThrow({ where: { id: production.id } });
      const handle = await temporal.client.workflow.start('productionWorkflow', productionWorkflowStart({
        productionId: production.id, greenlightMode: 'manual', taskQueuePrefix: config.temporal.taskQueuePrefix,
        stepTimeoutMs: config.worker.stepTimeoutMs, renderHeartbeatTimeoutMs: config.render.heartbeatTimeoutMs,
      }));
      await waitFor(async () => (await read()).stage === 'pitch_ready');
      await handle.executeUpdate(greenlightUpdate, { args: [{ actor: 'key:test', actorName: 'Test' }] });

      await waitFor(async () => (await read()).queue && QueueStatus.parse((await read()).queue).phase === 'building', { what: 'the building phase', timeoutMs: 60_000, intervalMs: 20 });
      process.kill(child.pid!, 'SIGTERM');
      // It drains by itself: no new work, the render it has to the end.
      expect(await exited).toEqual([0, null]);
      expect(output.join('')).toContain('stopped');

      // Another render worker runs what is left of the render workflow; it has no render to try again.
      running.push(runRenderWorker(await createRenderWorker({
        config, connection: temporal.nativeConnection, db, blobs: createBlobStore(config.blobs), workflowBundle: temporal.workflowBundle,
      }), stop.signal));
      await waitFor(async () => (await read()).stage === 'delivered', { what: 'the delivery', timeoutMs: 120_000, intervalMs: 100 });
      expect(await read()).toMatchObject({ stage: 'delivered', creditsCharged: 30, error: null, queue: null });
      const notes = await db.productionEvent.findMany({ where: { productionId: production.id, kind: 'note' }, orderBy: { seq: 'asc' } });
      expect(notes.map((n) => (n.payload as { phase: string }).phase)).toEqual([...PHASES]);
      expect(notes.every((n) => n.stepKey.split(':')[2] === '1')).toBe(true);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      stop.abort();
      await Promise.all(running);
      await temporal.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
