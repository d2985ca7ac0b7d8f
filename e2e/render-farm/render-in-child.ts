import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { createBlobStore } from '@vp/blobs';
import { Brief, QueueStatus, workflowIds } from '@vp/contracts';
import type { Db } from '@vp/db';
import { createBuiltinWriter } from '@vp/pitch';
import { insertProduction } from '@vp/productions';
import { productionWorkflows, productionWorkflowSettings } from '@vp/temporal-client';
import { connectTemporal, seedAccount, testConfig, testSecrets, waitFor } from '@vp/testing';
import { createWorkers, runWorkers } from '@vp/worker';
import { greenlightUpdate } from '@vp/workflows/definitions';
import { createRenderWorker, runRenderWorker } from '@vp/render-worker';

const RENDER_WORKER = fileURLToPath(new URL('./render-worker-process.ts', import.meta.url));

/**
 * A greenlit production whose render runs on a render worker in a process of its own (the
 * machine a test kills or stops), with the productions and webhooks workers in this one.
 * Resolves once the render is in its building phase: frames are being drawn and encoded.
 * `renderElsewhere` starts another render worker here; `close` ends everything.
 */
export async function productionRenderingInChild(
  database: { url: string; db: Db },
  options: { heartbeatTimeoutMs: number; durationMs: number; childEnv?: Record<string, string> },
) {
  const { db } = database;
  const dataDir = await mkdtemp(join(tmpdir(), 'vp-render-child-'));
  const temporal = await connectTemporal();
  const config = testConfig(database.url, {
    DATA_DIR: dataDir, PRODUCTION_STEP_TIMEOUT_MS: '5000', RENDER_HEARTBEAT_TIMEOUT_MS: String(options.heartbeatTimeoutMs),
  });
  const stop = new AbortController();
  const running: Promise<unknown>[] = [];
  // The child reads its configuration from this environment alone: the defaults of a deployment.
  const child = spawn(process.execPath, ['--import', 'tsx', RENDER_WORKER, inject('workflowBundlePath')], {
    env: {
      PATH: process.env.PATH, LOG_LEVEL: 'silent', DATABASE_URL: database.url, TEMPORAL_ADDRESS: inject('temporalAddress'),
      TEMPORAL_TASK_QUEUE_PREFIX: config.temporal.taskQueuePrefix, DATA_DIR: dataDir, ...testSecrets, ...options.childEnv,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const output: string[] = [];
  child.stdout.on('data', (chunk) => output.push(String(chunk)));
  const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('exit', (code, signal) => resolve([code, signal])));

  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    stop.abort();
    await Promise.all(running);
    await temporal.close();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await waitFor(() => output.join('').includes('ready'), { what: 'the render worker process', timeoutMs: 60_000 });
    const workers = await createWorkers({ config, connection: temporal.nativeConnection, db, writer: createBuiltinWriter(), workflowBundle: temporal.workflowBundle });
    running.push(runWorkers(workers, stop.signal));

    const { account, workspace } = await seedAccount(db, { credits: 100 });
    const { production } = await insertProduction(db, {
      workspace: await db.workspace.findUniqueOrThrow({ where: { id: workspace.id } }),
      createdBy: account.id, actor: { actor: 'key:test', actorName: 'Test' }, sourceKind: 'api', greenlightMode: 'manual',
      brief: Brief.parse({ intent: 'Announce faster exports in release 2.4', format: { durationMs: options.durationMs } }),
    });
    const read = () => db.production.findUniqueOrThrow({ where: { id: production.id } });
    await productionWorkflows(temporal.client, productionWorkflowSettings(config)).start({ productionId: production.id, workspaceId: production.workspaceId, greenlightMode: 'manual' });
    const handle = temporal.client.workflow.getHandle(workflowIds.production(production.id));
    await waitFor(async () => (await read()).stage === 'pitch_ready');
    await handle.executeUpdate(greenlightUpdate, { args: [{ actor: 'key:test', actorName: 'Test' }] });
    await waitFor(async () => (await read()).queue && QueueStatus.parse((await read()).queue).phase === 'building', { what: 'the building phase', timeoutMs: 60_000, intervalMs: 20 });

    return {
      config, account, production, read, child, output, exited, close,
      renderElsewhere: async () => running.push(runRenderWorker(await createRenderWorker({
        config, connection: temporal.nativeConnection, db, blobs: createBlobStore(config.blobs), workflowBundle: temporal.workflowBundle,
      }), stop.signal)),
    };
  } catch (error) {
    await close();
    throw error;
  }
}
