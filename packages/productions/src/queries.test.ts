import { describe, expect } from 'vitest';
import { Brief } from '@vp/contracts';
import { seedAccount, test } from '@vp/testing';
import { applyStep, insertProduction, findProduction, listProductions, toProduction } from './index.ts';

describe('a production read with its pitch', () => {
  test('shows the current version while the next one is written, or after a cancel overtook it', async ({ database: { db } }) => {
    const { account, workspace } = await seedAccount(db, { credits: 100 });
    const { production } = await insertProduction(db, {
      workspace: await db.workspace.findUniqueOrThrow({ where: { id: workspace.id } }), createdBy: account.id,
      actor: { actor: 'key:k', actorName: 'K' }, sourceKind: 'api', greenlightMode: 'manual',
      brief: Brief.parse({ intent: 'Read me' }),
    });
    await applyStep(db, {
      productionId: production.id, stepKey: `${production.id}:pitch:1`, from: ['queued'],
      event: { kind: 'pitch', actor: 'system', actorName: null, payload: { stage: 'pitch_ready', version: 1 } },
      update: { stage: 'pitch_ready', pitchVersion: 1 },
    }, async (tx) => {
      await tx.pitchVersion.create({ data: { productionId: production.id, version: 1, workspaceId: workspace.id, pitch: { title: 'v1' } } });
    });
    // Version 2 is stored, and not shown: the writer has just finished, or a cancel came first.
    await db.pitchVersion.create({ data: { productionId: production.id, version: 2, workspaceId: workspace.id, pitch: { title: 'v2' } } });

    const title = (row: Parameters<typeof toProduction>[0]) => toProduction(row, 'https://app.example').pitch?.title;
    expect(title((await findProduction(db, production.id))!)).toBe('v1');
    const { rows } = await listProductions(db, { workspaceId: workspace.id, limit: 20 });
    expect(rows.map(title)).toEqual(['v1']);
  });
});
