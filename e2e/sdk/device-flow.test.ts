import { describe, expect } from 'vitest';
import { answerKeyRequest, keyRequestBox, type KeyRequestDeps } from '@vp/accounts';
import { keyRequestWorkflows, keyRequestWorkflowSettings } from '@vp/temporal-client';
import { seedAccount, test } from '@vp/testing';
import { createClient, DeviceFlowError, requestApiKey, type KeyRequest } from '@vp/sdk';
import { servedGateway } from './served.ts';

const it = test.extend('served', { scope: 'file' }, async ({ database }, { onCleanup }) => {
  const served = await servedGateway(database, { workers: true });
  onCleanup(served.close);
  return served;
});

type Served = Awaited<ReturnType<typeof servedGateway>>;

/** A person answering in the app: the same domain function the approval page calls. */
async function answer(served: Served, db: KeyRequestDeps['db'], request: KeyRequest, choice: 'approve' | 'deny') {
  const { config, temporal } = served.stack;
  const deps: KeyRequestDeps = {
    db, appUrl: config.appUrl, pendingMs: keyRequestWorkflowSettings(config).pendingMs, box: keyRequestBox(config.secrets),
    workflows: keyRequestWorkflows(temporal.client, keyRequestWorkflowSettings(config)),
  };
  const { account } = await seedAccount(db);
  await answerKeyRequest(deps, { accountId: account.id, actor: `user:${account.id}`, via: 'app' }, { code: request.userCode, answer: choice });
}

describe('the device flow as one SDK call', () => {
  it('shows the approval URL, polls every pollIntervalSeconds while pending, and returns the key once approved', async ({ served, database }) => {
    const waits: number[] = [];
    let pending = 0;
    let started: KeyRequest | undefined;
    const { apiKey, request } = await requestApiKey({
      baseUrl: served.baseUrl,
      name: 'sdk test',
      onApproval: (shown) => void (started = shown),
      // The person approves after the tool's second poll found the request still pending.
      onPending: async () => {
        if (++pending === 2) await answer(served, database.db, started!, 'approve');
      },
      sleep: async (ms) => void waits.push(ms),
    });
    expect(request.approvalUrl).toBe(`${served.stack.config.appUrl}/keys/approve?code=${request.userCode}`);
    expect(pending).toBe(2);
    // Three polls: pending, pending (then approved), the key.
    expect(waits).toEqual(Array(3).fill(request.pollIntervalSeconds * 1000));
    expect(apiKey).toMatch(/^svc_live_/);
    await expect(createClient({ baseUrl: served.baseUrl, apiKey }).productions.list()).resolves.toMatchObject({ productions: [] });
  });

  it('rejects with DeviceFlowError when the person denies the request', async ({ served, database }) => {
    const outcome = await requestApiKey({
      baseUrl: served.baseUrl,
      name: 'sdk test, denied',
      onApproval: (shown) => answer(served, database.db, shown, 'deny'),
      sleep: async () => {},
    }).catch((error: unknown) => error);
    expect(outcome).toBeInstanceOf(DeviceFlowError);
    expect(outcome).toMatchObject({ status: 'denied' });
  });
});
