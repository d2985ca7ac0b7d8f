import { describe, expect } from 'vitest';
import { DomainError, type Caller } from '@vp/contracts';
import { comment, createProduction, decline, type ProductionDeps } from '@vp/productions';
import { productionWorkflows, productionWorkflowSettings } from '@vp/temporal-client';
import { seedAccount, test, waitFor } from '@vp/testing';
import { startTestWorkers } from './testing/test-workers.ts';

/**
 * Text PostgreSQL cannot store, past every check at the edge (a caller of the domain that did not
 * check, a front door added later): the step that meets it is refused at once, in words, and
 * the production takes the next valid action. Nothing retries forever.
 */
const it = test.extend('env', { scope: 'file' }, async ({ database }, { onCleanup }) => {
  const { config, client, close } = await startTestWorkers(database);
  onCleanup(close);
  const deps: ProductionDeps = { db: database.db, appUrl: config.appUrl, pitchesEnabled: true, workflows: productionWorkflows(client, productionWorkflowSettings(config)) };
  return { deps };
});

const refusal = (promise: Promise<unknown>) => promise.then(() => 'accepted', (error: unknown) => (error instanceof DomainError ? error : Promise.reject(error)));

describe('a step that meets data the database refuses', () => {
  it('is refused as invalid at once, changes nothing, and the production takes the next valid action', async ({ env }) => {
    const { deps } = env;
    const { account } = await seedAccount(deps.db, { credits: 100 });
    const me: Caller = { accountId: account.id, actor: `user:${account.id}`, via: 'api' };
    const { production } = await createProduction(deps, me, { brief: { intent: 'Announce faster exports', format: { durationMs: 5000 } }, greenlightMode: 'manual' } as never);
    await waitFor(async () => (await deps.db.production.findUniqueOrThrow({ where: { id: production.id } })).stage === 'pitch_ready', { what: 'the pitch' });

    for (const text of ['A lone surrogate \ud800 here', 'A NUL \u0000 here']) {
      const refused = await refusal(comment(deps, me, production.id, { comment: text }));
      expect(refused).toBeInstanceOf(DomainError);
      expect(refused).toMatchObject({ code: 'invalid', message: expect.stringMatching(/could not store/) });
    }
    const row = await deps.db.production.findUniqueOrThrow({ where: { id: production.id } });
    expect(row).toMatchObject({ stage: 'pitch_ready', revisionsLeft: 3 });
    expect(await deps.db.productionEvent.count({ where: { productionId: production.id, kind: 'comment' } })).toBe(0);

    // The next valid answer is taken as if nothing had happened.
    expect(await refusal(decline(deps, me, production.id, { reason: 'Not this release \ud83d\ude80' }))).toBe('accepted');
    expect((await deps.db.production.findUniqueOrThrow({ where: { id: production.id } })).stage).toBe('declined');
  });
});
