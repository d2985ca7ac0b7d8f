import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject } from 'vitest';
import { Brief, workflowIds } from '@vp/contracts';
import { balance } from '@vp/ledger';
import { createBuiltinWriter } from '@vp/pitch';
import { insertProduction } from '@vp/productions';
import { productionWorkflows, productionWorkflowSettings } from '@vp/temporal-client';
import { connectTemporal, seedAccount, test, testConfig, testSecrets, waitFor } from '@vp/testing';
import { greenlightUpdate } from '@vp/workflows/definitions';
import { createWorkers, runWorkers } from './worker.ts';

const CRASHING_WORKER = fileURLToPath(new URL('./testing/crashing-worker.ts', import.meta.url));

describe('a worker killed mid-step', () => {
  test('between the charge and the next step: the step is retried elsewhere and the production is charged once', async ({ database }) => {
    const temporal = await connectTemporal();
    const config = testConfig(database.url, { PRODUCTION_STEP_TIMEOUT_MS: '2000' });
    const { account, workspace } = await seedAccount(database.db, { credits: 100 });
    const { production } = await insertProduction(database.db, {
      workspace: await database.db.workspace.findUniqueOrThrow({ where: { id: workspace.id } }),
      createdBy: account.id, actor: { actor: 'key:test', actorName: 'Test' }, sourceKind: 'api',
      brief: Brief.parse({ intent: 'Announce faster exports', format: { durationMs: 10_000 } }), greenlightMode: 'manual',
    });

    // The first worker process does everything, and dies right after the greenlight step commits.
    const child = spawn(process.execPath, ['--import', 'tsx', CRASHING_WORKER, 'greenlight', inject('workflowBundlePath')], {
      env: { PATH: process.env.PATH, DATABASE_URL: database.url, TEMPORAL_ADDRESS: inject('temporalAddress'), TEMPORAL_TASK_QUEUE_PREFIX: config.temporal.taskQueuePrefix, ...testSecrets },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const output: string[] = [];
    child.stdout.on('data', (chunk) => output.push(String(chunk)));
    const died = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    await waitFor(() => output.join('').includes('ready'), { what: 'the crashing worker', timeoutMs: 30_000 });

    await productionWorkflows(temporal.client, productionWorkflowSettings(config)).start({ productionId: production.id, workspaceId: production.workspaceId, greenlightMode: 'manual' });
    const handle = temporal.client.workflow.getHandle(workflowIds.production(production.id));
    await waitFor(async () => (await database.db.production.findUniqueOrThrow({ where: { id: production.id } })).stage === 'pitch_ready');
    const greenlit = handle.executeUpdate(greenlightUpdate, { args: [{ actor: 'key:test', actorName: 'Test' }] });
    expect(await died).toBe('SIGKILL');
    expect(output.join('')).toContain('crashing after greenlight');
    // The charge is in, but Temporal never heard that the step finished.
    expect(await database.db.creditEntry.count({ where: { productionId: production.id, kind: 'charge' } })).toBe(1);

    // A healthy worker takes over: the step is retried, finds its work done, and the production moves on.
    const workers = await createWorkers({ config, connection: temporal.nativeConnection, db: database.db, writer: createBuiltinWriter(), workflowBundle: temporal.workflowBundle });
    const stop = new AbortController();
    const running = runWorkers(workers, stop.signal);
    try {
      await greenlit;
      await waitFor(async () => (await database.db.production.findUniqueOrThrow({ where: { id: production.id } })).stage === 'making', { timeoutMs: 30_000 });
      expect(await database.db.creditEntry.count({ where: { productionId: production.id, kind: 'charge' } })).toBe(1);
      expect(await balance(database.db, account.id)).toBe(90);
      expect(await database.db.productionEvent.count({ where: { productionId: production.id, kind: 'greenlit' } })).toBe(1);
      const row = await database.db.production.findUniqueOrThrow({ where: { id: production.id } });
      expect(row.creditsCharged).toBe(10);
    } finally {
      stop.abort();
      await running;
      await temporal.close();
    }
  }, 90_000);
});
