import type { AddressInfo } from 'node:net';
import { describe, expect } from 'vitest';
import { createApiKey } from '@vp/accounts';
import { SCOPES } from '@vp/contracts';
import { seedAccount, test } from '@vp/testing';
import { serveApp } from '@vp/gateway/server';
import { createTestStack } from '../stack.ts';
import { fuzz, FUZZ_ENV, linkTokens, SAMPLE_PNG, settleWorkflows, summary } from '@vp/gateway/fuzz';

/** The CI's share of the fuzzer; `bench/fuzz/run.ts` sends 10,000 (see bench/README.md). */
const REQUESTS = 2000;
const SEED = 40;

// The whole service over HTTP: the gateway, the workers (so accepted productions really start:
// pitches are written, greenlights charge), PostgreSQL and Temporal.
const it = test.extend('stack', { scope: 'file' }, async ({ database }, { onCleanup }) => {
  const stack = await createTestStack(database, { env: FUZZ_ENV });
  const server = serveApp(stack.app, { hostname: '127.0.0.1', port: 0, bodyIdleTimeoutMs: stack.config.http.bodyIdleTimeoutMs });
  await new Promise((resolve) => server.once('listening', resolve));
  onCleanup(async () => {
    // A request a failing run left waiting must not hold the server open.
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    // Workers cannot stop while a step of theirs is tried again without end (what this test looks
    // for): a failed run does not wait for them.
    await Promise.race([stack.close(), new Promise((resolve) => setTimeout(resolve, 60_000).unref())]);
  });
  return { ...stack, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
});

describe('requests drawn from the OpenAPI document the gateway serves (fuzzed)', () => {
  it(`${REQUESTS} of them, to every route: none answered 5xx or after 5 s, every refusal in the error shape, and no workflow left retrying a step`, async ({ stack, database }) => {
    const { account, workspace } = await seedAccount(database.db, { credits: 300 });
    await database.db.workspace.update({ where: { id: workspace.id }, data: { pitchCap: 1_000_000 } });
    const report = await fuzz({
      baseUrl: stack.baseUrl, requests: REQUESTS, seed: SEED, concurrency: 6,
      newKey: async () => (await createApiKey(database.db, { accountId: account.id, name: 'fuzz', scopes: SCOPES })).apiKey,
      files: [SAMPLE_PNG],
      pathValues: linkTokens(stack.config.secrets.links, account.email),
    });
    expect(report.serverErrors).toEqual([]);
    expect(report.slow).toEqual([]);
    expect(report.unshaped).toEqual([]);
    // Every route was reached, and valid requests went through: productions were made and acted on.
    const document = await (await fetch(`${stack.baseUrl}/v1/openapi.json`)).json() as { paths: Record<string, object> };
    expect(Object.keys(report.byOperation)).toHaveLength(Object.values(document.paths).flatMap((methods) => Object.keys(methods)).length);
    expect(report.byOperation['POST /v1/productions']!.statuses[201]).toBeGreaterThan(0);
    expect(await database.db.productionEvent.count({ where: { kind: { in: ['comment', 'greenlit', 'declined', 'cancelled'] } } })).toBeGreaterThan(0);

    const settled = await settleWorkflows(stack.temporal.client, stack.config.temporal.taskQueuePrefix);
    console.log(summary(report, settled));
    expect(settled.retrying).toEqual([]);
  }, 900_000);
});
