import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject } from 'vitest';
import { createBlobStore } from '@vp/blobs';
import { Brief, PHASES, QueueStatus } from '@vp/contracts';
import { balance } from '@vp/ledger';
import { createBuiltinWriter } from '@vp/pitch';
import { createProduction } from '@vp/productions';
import { exportKeys } from '@vp/projects';
import { connectTemporal, seedAccount, test, testConfig, waitFor } from '@vp/testing';
import { createWorkers, runWorkers } from '@vp/worker';
import { greenlightUpdate } from '@vp/workflows/definitions';
import { productionWorkflowStart } from '@vp/workflows/start';
import { createRenderWorker, runRenderWorker } from './worker.ts';

const RENDER_WORKER = fileURLToPath(new URL('./testing/render-worker-process.ts', import.meta.url));

describe('a render worker killed mid-render', () => {
  test('loses nothing: the try is retried on another worker, and the production is delivered and charged once', async ({ database }) => {
    const { db } = database;
    const dataDir = await mkdtemp(join(tmpdir(), 'vp-render-crash-'));
    const temporal = await connectTemporal();
    // A render silent for 3 s is presumed dead.
    const config = testConfig(database.url, { DATA_DIR: dataDir, PRODUCTION_STEP_TIMEOUT_MS: '5000', RENDER_HEARTBEAT_TIMEOUT_MS: '3000' });
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
      const died = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
      await waitFor(() => output.join('').includes('ready'), { what: 'the render worker process', timeoutMs: 60_000 });

      // The productions and webhooks workers, in this process; the render farm is the child alone.
      const workers = await createWorkers({ config, connection: temporal.nativeConnection, db, writer: createBuiltinWriter(), workflowBundle: temporal.workflowBundle });
      running.push(runWorkers(workers, stop.signal));

      const { account, workspace } = await seedAccount(db, { credits: 100 });
      const { production } = await createProduction(db, {
        workspace: await db.workspace.findUniqueOrThrow({ where: { id: workspace.id } }),
        createdBy: account.id, actor: { actor: 'key:test', actorName: 'Test' }, sourceKind: 'api', greenlightMode: 'manual',
        brief: Brief.parse({ intent: 'Announce faster exports in release 2.4', format: { durationMs: 5000 } }),
      });
      const read = () => db.production.findUniqueOrThrow({ where: { id: production.id } });
      const handle = await temporal.client.workflow.start('productionWorkflow', productionWorkflowStart({
        productionId: production.id, greenlightMode: 'manual', taskQueuePrefix: config.temporal.taskQueuePrefix,
        stepTimeoutMs: config.worker.stepTimeoutMs, renderHeartbeatTimeoutMs: config.render.heartbeatTimeoutMs,
      }));
      await waitFor(async () => (await read()).stage === 'pitch_ready');
      await handle.executeUpdate(greenlightUpdate, { args: [{ actor: 'key:test', actorName: 'Test' }] });

      // Mid-render: frames are being drawn and encoded when the machine dies.
      await waitFor(async () => (await read()).queue && QueueStatus.parse((await read()).queue).phase === 'building', { what: 'the building phase', timeoutMs: 60_000, intervalMs: 20 });
      process.kill(child.pid!, 'SIGKILL');
      expect(await died).toBe('SIGKILL');
      expect((await read()).stage).toBe('making');

      // Another render worker takes the retried try.
      running.push(runRenderWorker(await createRenderWorker({
        config, connection: temporal.nativeConnection, db, blobs: createBlobStore(config.blobs), workflowBundle: temporal.workflowBundle,
      }), stop.signal));
      const seen: QueueStatus[] = [];
      await waitFor(async () => {
        const row = await read();
        if (row.queue) seen.push(QueueStatus.parse(row.queue));
        return row.stage === 'delivered';
      }, { what: 'the delivery', timeoutMs: 120_000, intervalMs: 100 });

      const row = await read();
      expect(row).toMatchObject({ stage: 'delivered', creditsCharged: 5, error: null, queue: null });
      expect(await db.creditEntry.count({ where: { productionId: production.id, kind: 'charge' } })).toBe(1);
      expect(await balance(db, account.id)).toBe(95);
      // The retried try said so in the queue status.
      const retried = seen.filter((q) => q.retrying);
      expect(retried.length).toBeGreaterThan(0);
      expect(retried.every((q) => q.lastProgress?.endsWith('(Try 2 of 3.)'))).toBe(true);

      // One note per phase per try: the first try got as far as building, the second to the end.
      const notes = await db.productionEvent.findMany({ where: { productionId: production.id, kind: 'note' }, orderBy: { seq: 'asc' } });
      expect(notes.map((n) => (n.payload as { phase: string }).phase)).toEqual(['preparing', 'planning', 'building', ...PHASES]);
      expect(notes.map((n) => n.stepKey.split(':')[2])).toEqual(['1', '1', '1', '2', '2', '2', '2', '2', '2']);
      expect(await db.productionEvent.count({ where: { productionId: production.id, kind: 'delivered' } })).toBe(1);

      // One project, one version, one export; its files are in the blob store.
      const delivery = row.delivery as { exportId: string; projectId: string };
      expect(await db.projectVersion.count({ where: { projectId: delivery.projectId } })).toBe(1);
      expect(await db.export.findMany({ where: { projectId: delivery.projectId } })).toEqual([expect.objectContaining({ id: delivery.exportId, status: 'done' })]);
      const blobs = createBlobStore(config.blobs);
      expect((await blobs.stat(exportKeys(delivery.exportId).video))?.size).toBeGreaterThan(10_000);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      stop.abort();
      await Promise.all(running);
      await temporal.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});
