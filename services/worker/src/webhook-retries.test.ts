import type { Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { Brief } from '@vp/contracts';
import type { Db } from '@vp/db';
import { insertProduction } from '@vp/productions';
import { productionWorkflows, productionWorkflowSettings } from '@vp/temporal-client';
import { seedAccount, test, testConfig, waitFor } from '@vp/testing';
import { verifyWebhook } from '@vp/webhook-verify';
import { insertEndpoint, createSecretBox } from '@vp/webhooks';
import { startReceiver, type Receiver } from '@vp/webhooks/testing';
import { startTestWorkers } from './testing/test-workers.ts';

// Retries after 200 ms, 400 ms and 800 ms; never switched off here.
const POLICY = { WEBHOOK_RETRY_SCHEDULE_MS: '200,400,800', WEBHOOK_TIMEOUT_MS: '2000', WEBHOOK_DISABLE_AFTER_FAILURES: '100', ALLOW_PRIVATE_URLS: 'true' };

let receiver: Receiver;
beforeAll(async () => {
  // A receiver that fails an event's first two attempts (a 503, then a 500), then takes it.
  receiver = await startReceiver((request) => {
    const before = receiver.received.filter((r) => r.path === request.path).length;
    return before < 2 ? { status: [503, 500][before]! } : { status: 204 };
  });
});
afterAll(() => receiver.close());

type Env = { config: ReturnType<typeof testConfig>; client: Client; db: Db };

const it = test.extend('env', { scope: 'file' }, async ({ database }, { onCleanup }): Promise<Env> => {
  const { config, client, close } = await startTestWorkers(database, { env: POLICY, webhookTransport: { ca: receiver.ca } });
  onCleanup(close);
  return { config, client, db: database.db };
});

describe('webhook retries', () => {
  it('send the same bytes every time, with the same Service-Event-Id: a receiver that failed twice records three equal bodies', { timeout: 60_000 }, async ({ env }) => {
    const { account, workspace } = await seedAccount(env.db, { credits: 100 });
    const { row: endpoint, secret } = await insertEndpoint(env.db, createSecretBox(env.config.secrets.webhookKey), {
      workspaceId: workspace.id, url: `https://localhost:${receiver.port}/retried`, events: ['production.pitch_ready'],
    });
    // A production's pitch_ready event: its body carries the pitch and greenlight links minted for the endpoint.
    const { production } = await insertProduction(env.db, {
      workspace: await env.db.workspace.findUniqueOrThrow({ where: { id: workspace.id } }), createdBy: account.id,
      actor: { actor: 'key:test', actorName: 'Test' }, sourceKind: 'api', greenlightMode: 'manual',
      brief: Brief.parse({ intent: 'Announce faster exports in release 2.4', format: { durationMs: 10_000 } }),
    });
    await productionWorkflows(env.client, productionWorkflowSettings(env.config)).start({ productionId: production.id, workspaceId: production.workspaceId, greenlightMode: 'manual' });

    const delivery = () => env.db.webhookDelivery.findFirstOrThrow({ where: { endpointId: endpoint.id } });
    await waitFor(async () => (await delivery()).status === 'succeeded', { what: 'the delivery to succeed', timeoutMs: 45_000, intervalMs: 100 });
    expect(await delivery()).toMatchObject({ attempts: 3, lastResponseStatus: 204 });

    const requests = receiver.received.filter((r) => r.path === '/retried');
    expect(requests).toHaveLength(3);
    const [first, ...retries] = requests;
    for (const retry of retries) expect(retry.bytes.equals(first!.bytes), 'a retry\'s body, byte for byte').toBe(true);
    expect(new Set(requests.map((r) => r.headers['service-event-id'])).size).toBe(1);
    expect(JSON.parse(first!.body)).toMatchObject({ id: requests[0]!.headers['service-event-id'], type: 'production.pitch_ready', data: { production: { id: production.id } } });
    // Each attempt signs anew (its own time), and each signature holds over those same bytes.
    for (const request of requests) expect(verifyWebhook({ payload: request.bytes, header: request.headers['service-signature'], secret })).toMatchObject({ ok: true });
  });
});
