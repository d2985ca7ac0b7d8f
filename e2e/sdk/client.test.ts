import { describe, expect } from 'vitest';
import { createRateLimiter } from '@vp/db';
import { seedAccount, test } from '@vp/testing';
import { ApiError, createClient, ProductionEndedError, type ProductionDetail } from '@vp/sdk';
import { servedGateway } from './served.ts';

/** The rate limiter's clock, which the SDK's waits move on: a Retry-After is waited for in full, at once. */
const clock = { now: Date.UTC(2030, 0, 1), slept: [] as number[] };
const sleep = async (ms: number) => {
  clock.slept.push(ms);
  clock.now += ms;
};

const it = test.extend('served', { scope: 'file' }, async ({ database }, { onCleanup }) => {
  const served = await servedGateway(database, { workers: true, limiter: createRateLimiter(database.db, () => clock.now) });
  onCleanup(served.close);
  return served;
});

const brief = (intent: string) => ({ intent, format: { durationMs: 5000 } });

describe('the SDK against the real gateway', () => {
  it('fails with typed errors carrying the status, the code and the issues', async ({ served, database }) => {
    const { apiKey } = await seedAccount(database.db, { credits: 100 });
    const vp = createClient({ baseUrl: served.baseUrl, apiKey, retry: { sleep } });

    const invalid = await vp.productions.create({ brief: { intent: '' } }).catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(ApiError);
    expect(invalid).toMatchObject({ status: 400, issues: expect.arrayContaining([expect.objectContaining({ path: 'brief.intent' })]) });
    expect((invalid as ApiError).requestId).toBeTruthy();

    await expect(vp.productions.get(crypto.randomUUID())).rejects.toMatchObject({ name: 'ApiError', status: 404, code: 'not_found' });
    const broke = createClient({ baseUrl: served.baseUrl, apiKey: (await seedAccount(database.db)).apiKey });
    await expect(broke.productions.create({ brief: brief('A video nobody can pay for') })).rejects.toMatchObject({ status: 402, code: 'credits' });
    const stranger = createClient({ baseUrl: served.baseUrl, apiKey: 'svc_live_' + 'x'.repeat(43) });
    await expect(stranger.productions.list()).rejects.toMatchObject({ status: 401 });

    const { production } = await vp.productions.create({ brief: brief('Declined twice') });
    await vp.productions.decline(production.id, 'not now');
    await expect(vp.productions.decline(production.id)).rejects.toMatchObject({ status: 409, code: 'stage' });
  });

  it('makes a create idempotent by its externalId: the same create again replays the first', async ({ served, database }) => {
    const { apiKey } = await seedAccount(database.db, { credits: 100 });
    const vp = createClient({ baseUrl: served.baseUrl, apiKey });
    const first = await vp.productions.create({ brief: brief('Once only'), externalId: 'release-2.4' });
    const again = await vp.productions.create({ brief: brief('Once only'), externalId: 'release-2.4' });
    expect([first.replayed, again.replayed]).toEqual([false, true]);
    expect(again.production.id).toBe(first.production.id);
    // Without one, the SDK sends one of its own, so that its retries replay too.
    const made = await vp.productions.create({ brief: brief('An id of its own') });
    expect(made.production.source.externalId).toMatch(/^sdk-[0-9a-f-]{36}$/);
  });

  it('tries a 429 again after the Retry-After the service sent, and without retries reports it', async ({ served, database }) => {
    const { apiKey } = await seedAccount(database.db, { credits: 100 });
    clock.now = Date.UTC(2030, 0, 2) + 10_000; // ten seconds into a fresh window
    const strict = createClient({ baseUrl: served.baseUrl, apiKey, retry: false });
    for (let call = 0; call < 120; call++) await strict.productions.list({ limit: 1 });

    const refused = await strict.productions.list({ limit: 1 }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 429, code: 'rate_limited', retryAfterSeconds: 50 });

    clock.slept = [];
    const retries: number[] = [];
    const patient = createClient({ baseUrl: served.baseUrl, apiKey, retry: { sleep, onRetry: (info) => retries.push(info.status ?? 0) } });
    const page = await patient.productions.list({ limit: 1 });
    expect(page.productions).toEqual([]);
    expect(clock.slept).toEqual([50_000]);
    expect(retries).toEqual([429]);
  });

  it('waits for a production, telling each change, and rejects when it ends elsewhere', async ({ served, database }) => {
    const { apiKey } = await seedAccount(database.db, { credits: 100 });
    const vp = createClient({ baseUrl: served.baseUrl, apiKey });
    const { production } = await vp.productions.create({ brief: brief('Show the new export button') });
    const seen: ProductionDetail[] = [];
    const ready = await vp.waitForProduction(production.id, { until: 'pitch_ready', intervalMs: 100, onProgress: (detail) => seen.push(detail) });
    expect(ready.production.pitch?.version).toBe(1);
    expect(ready.pitchMarkdown).toContain(ready.production.pitch?.title);
    expect(seen.at(-1)?.production.stage).toBe('pitch_ready');
    // One call per change: never the same stage twice in a row.
    const stages = seen.map((detail) => detail.production.stage);
    expect(stages.filter((stage, i) => stage === stages[i - 1])).toEqual([]);

    await vp.productions.cancel(production.id, 'changed our minds');
    const ended = await vp.waitForProduction(production.id, { until: 'delivered', intervalMs: 100 }).catch((error: unknown) => error);
    expect(ended).toBeInstanceOf(ProductionEndedError);
    expect(ended).toMatchObject({ stage: 'cancelled', productionId: production.id });

    const stop = new AbortController();
    stop.abort(new Error('stopped by the caller'));
    await expect(vp.waitForProduction(production.id, { signal: stop.signal })).rejects.toThrow('stopped by the caller');
  });
});
