import { describe, expect } from 'vitest';
import { DomainError, type Caller } from '@vp/contracts';
import { balance, grant } from '@vp/ledger';
import { comment, createProduction, greenlight, pitchesUsed, type ProductionDeps } from '@vp/productions';
import { productionWorkflows, productionWorkflowSettings } from '@vp/temporal-client';
import { seedAccount, test, waitFor } from '@vp/testing';
import { startTestWorkers } from './testing/test-workers.ts';

/**
 * The rules that a pitch is written only while the owner's credits cover its video and the
 * month's pitches are under the cap, and that a greenlight charges only what the balance holds:
 * checked under one lock, so that requests arriving together cannot overrun them.
 */
const it = test.extend('env', { scope: 'file' }, async ({ database }, { onCleanup }) => {
  const { config, client, close } = await startTestWorkers(database);
  onCleanup(close);
  const deps: ProductionDeps = { db: database.db, appUrl: config.appUrl, pitchesEnabled: true, workflows: productionWorkflows(client, productionWorkflowSettings(config)) };
  return { deps };
});

const BRIEF = { intent: 'Announce faster exports in release 2.4', format: { durationMs: 5000 } };
const callerOf = (accountId: string): Caller => ({ accountId, actor: `user:${accountId}`, via: 'api' });
const codeOf = (result: PromiseSettledResult<unknown>) => (result.status === 'fulfilled' ? 'ok' : result.reason instanceof DomainError ? result.reason.code : String(result.reason));

async function pitchReady(deps: ProductionDeps, caller: Caller) {
  const { production } = await createProduction(deps, caller, { brief: BRIEF, greenlightMode: 'manual' } as never);
  await waitFor(async () => (await deps.db.production.findUniqueOrThrow({ where: { id: production.id } })).stage === 'pitch_ready', { what: 'the pitch' });
  return production.id;
}

describe('pitches and charges asked for at the same moment', () => {
  it('five creates and comments against room for one more pitch: exactly one is written, the others refused for the cap', async ({ env }) => {
    const { deps } = env;
    const { account, workspace } = await seedAccount(deps.db, { credits: 1000 });
    const me = callerOf(account.id);
    const ready = [await pitchReady(deps, me), await pitchReady(deps, me), await pitchReady(deps, me)];
    // Room for exactly one more pitch this month.
    await deps.db.workspace.update({ where: { id: workspace.id }, data: { pitchCap: (await pitchesUsed(deps.db, workspace.id)) + 1 } });
    const results = await Promise.allSettled([
      ...ready.map((id) => comment(deps, me, id, { comment: 'Shorter, please.' })),
      createProduction(deps, me, { brief: BRIEF, greenlightMode: 'manual' } as never),
      createProduction(deps, me, { brief: BRIEF, greenlightMode: 'manual' } as never),
    ]);
    expect(results.map(codeOf).sort()).toEqual(['cap', 'cap', 'cap', 'cap', 'ok']);
    const refused = results.find((result) => result.status === 'rejected')!;
    expect((refused as PromiseRejectedResult).reason.details.retryAfterSeconds).toBeGreaterThan(0);
    // Once the written pitch has landed, the month's count is at the cap, not past it.
    await waitFor(async () => (await deps.db.production.count({ where: { workspaceId: workspace.id, stage: { in: ['queued', 'writing_pitch'] } } })) === 0, { what: 'the pitch written' });
    const { pitchCap } = await deps.db.workspace.findUniqueOrThrow({ where: { id: workspace.id } });
    expect(await pitchesUsed(deps.db, workspace.id)).toBe(pitchCap);
  });

  it('two productions of one owner greenlit at once against credits for one: exactly one is charged, the other refused, the balance never below 0', async ({ env }) => {
    const { deps } = env;
    const { account } = await seedAccount(deps.db, { credits: 10 });
    const me = callerOf(account.id);
    const [a, b] = [await pitchReady(deps, me), await pitchReady(deps, me)];
    // Each 5-second video costs 5: after both pitches, the owner holds credits for one.
    await deps.db.creditEntry.create({ data: { accountId: account.id, kind: 'grant', amount: -5, note: 'spent elsewhere' } });
    expect(await balance(deps.db, account.id)).toBe(5);
    const results = await Promise.allSettled([greenlight(deps, me, a, {}), greenlight(deps, me, b, {})]);
    expect(results.map(codeOf).sort()).toEqual(['credits', 'ok']);
    expect(await balance(deps.db, account.id)).toBe(0);
    expect(await deps.db.creditEntry.count({ where: { accountId: account.id, kind: 'charge' } })).toBe(1);
    // The refused one still awaits an answer, and takes one once there are credits.
    const refused = results[0]!.status === 'rejected' ? a : b;
    expect((await deps.db.production.findUniqueOrThrow({ where: { id: refused } })).stage).toBe('pitch_ready');
    await grant(deps.db, account.id, 5);
    await greenlight(deps, me, refused, {});
    expect(await balance(deps.db, account.id)).toBe(0);
  });
});
