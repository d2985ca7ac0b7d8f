import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject } from 'vitest';
import { answerKeyRequest, keyRequestBox, pollKeyRequest, requestKey, type KeyRequestDeps } from '@vp/accounts';
import { workflowIds } from '@vp/contracts';
import { keyRequestWorkflows, keyRequestWorkflowSettings } from '@vp/temporal-client';
import { connectTemporal, seedAccount, test, testConfig, testSecrets, waitFor } from '@vp/testing';
import { startTestWorkers } from './testing/test-workers.ts';

const KEYS_WORKER = fileURLToPath(new URL('./testing/keys-worker.ts', import.meta.url));

describe('a worker killed while key requests wait (spec: Device key request)', () => {
  test('they still expire or get claimed correctly once another worker takes over', { timeout: 120_000 }, async ({ database }) => {
    const temporal = await connectTemporal();
    const config = testConfig(database.url, { PRODUCTION_STEP_TIMEOUT_MS: '2000' });
    const deps = (timers: { pendingMs: number; claimWindowMs: number }): KeyRequestDeps => ({
      db: database.db, appUrl: config.appUrl, pendingMs: timers.pendingMs, box: keyRequestBox(config.secrets),
      workflows: keyRequestWorkflows(temporal.client, { ...keyRequestWorkflowSettings(config), ...timers, revokeGraceMs: 60_000, updateDeadlineMs: 30_000 }),
    });
    const child = spawn(process.execPath, ['--import', 'tsx', KEYS_WORKER, inject('workflowBundlePath')], {
      env: { PATH: process.env.PATH, DATABASE_URL: database.url, TEMPORAL_ADDRESS: inject('temporalAddress'), TEMPORAL_TASK_QUEUE_PREFIX: config.temporal.taskQueuePrefix, ...testSecrets },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => void (output += String(chunk)));
    const died = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    await waitFor(() => output.includes('ready'), { what: 'the keys worker', timeoutMs: 30_000 });
    let workers: Awaited<ReturnType<typeof startTestWorkers>> | null = null;
    try {
      const { account } = await seedAccount(database.db);
      const caller = { accountId: account.id, actor: `user:${account.id}`, via: 'app' } as const;
      // Approved before the crash, claimed after it.
      const toClaim = await requestKey(deps({ pendingMs: 60_000, claimWindowMs: 60_000 }), { name: 'claimed later', requestedFrom: null });
      await answerKeyRequest(deps({ pendingMs: 60_000, claimWindowMs: 60_000 }), caller, { code: toClaim.userCode, answer: 'approve' });
      // Approved before the crash, never claimed: its claim window runs out while no worker is up.
      const unclaimedDeps = deps({ pendingMs: 60_000, claimWindowMs: 6000 });
      const unclaimed = await requestKey(unclaimedDeps, { name: 'never claimed', requestedFrom: null });
      await answerKeyRequest(unclaimedDeps, caller, { code: unclaimed.userCode, answer: 'approve' });
      // Waiting for an answer: its time runs out while no worker is up.
      const unanswered = await requestKey(deps({ pendingMs: 6000, claimWindowMs: 60_000 }), { name: 'unanswered', requestedFrom: null });

      const rowOf = (started: { userCode: string }) => database.db.keyRequest.findFirstOrThrow({ where: { userCode: started.userCode.replace('-', '') } });
      expect([(await rowOf(unanswered)).status, (await rowOf(unclaimed)).status]).toEqual(['pending', 'approved']);
      const events = async (started: { userCode: string }) =>
        (await temporal.client.workflow.getHandle(workflowIds.keyRequest((await rowOf(started)).id)).fetchHistory()).events ?? [];
      // Killed once both timers are armed (their workflows' tasks ran), as the requests would be waiting.
      const armed = async (started: { userCode: string }) => (await events(started)).some((event) => event.timerStartedEventAttributes);
      await waitFor(async () => (await armed(unanswered)) && armed(unclaimed), { what: 'the timers to be armed', timeoutMs: 30_000, intervalMs: 200 });
      child.kill('SIGKILL');
      expect(await died).toBe('SIGKILL');
      const unclaimedRow = await rowOf(unclaimed);
      // Their timers fire on the server with nobody to run them: the read model stays as it was.
      const timerFired = async (started: { userCode: string }) => (await events(started)).some((event) => event.timerFiredEventAttributes);
      await waitFor(async () => (await timerFired(unanswered)) && timerFired(unclaimed), { what: 'the timers to fire', timeoutMs: 30_000, intervalMs: 200 });
      expect((await rowOf(unanswered)).status).toBe('pending');
      expect((await rowOf(unclaimed)).status).toBe('approved');

      workers = await startTestWorkers(database, { config, temporal });
      await waitFor(async () => (await rowOf(unanswered)).status === 'expired', { what: 'the unanswered request to expire', timeoutMs: 30_000 });
      await waitFor(async () => (await rowOf(unclaimed)).status === 'expired', { what: 'the unclaimed key to expire', timeoutMs: 30_000 });
      expect(await rowOf(unclaimed)).toMatchObject({ keySealed: null });
      expect(await database.db.apiKey.findUniqueOrThrow({ where: { id: unclaimedRow.keyId! } })).toMatchObject({ revokedAt: expect.any(Date) });

      const claimDeps = deps({ pendingMs: 60_000, claimWindowMs: 60_000 });
      const first = await pollKeyRequest(claimDeps, { deviceCode: toClaim.deviceCode });
      expect(first).toEqual({ status: 'approved', apiKey: expect.stringMatching(/^svc_live_/) });
      expect(await pollKeyRequest(claimDeps, { deviceCode: toClaim.deviceCode })).toEqual({ status: 'claimed' });
      expect(await pollKeyRequest(claimDeps, { deviceCode: unanswered.deviceCode })).toEqual({ status: 'expired' });
      expect(await temporal.client.workflow.getHandle(workflowIds.keyRequest((await rowOf(unanswered)).id)).result()).toBe('expired');
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await workers?.close();
      await temporal.close();
    }
  });
});

