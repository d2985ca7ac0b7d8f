import { describe, expect } from 'vitest';
import { Brief } from '@vp/contracts';
import { seedAccount, test } from '@vp/testing';
import { applyStep, insertProduction, findProductionFor } from './index.ts';

describe('findProductionFor', () => {
  test('reads what Prisma reads — row, current pitch, timeline — plus the caller\'s role', async ({ database: { db } }) => {
    const { account, workspace } = await seedAccount(db, { credits: 100 });
    const stranger = await seedAccount(db);
    const { production } = await insertProduction(db, {
      workspace: await db.workspace.findUniqueOrThrow({ where: { id: workspace.id } }), createdBy: account.id,
      actor: { actor: 'key:k', actorName: 'K' }, sourceKind: 'api', greenlightMode: 'manual', externalId: 'x-1',
      brief: Brief.parse({ intent: 'Read me' }), origin: { provider: 'github', label: 'acme', url: null, ref: null, requestedBy: null },
    });
    for (const version of [1, 2]) {
      await applyStep(db, {
        productionId: production.id, stepKey: `${production.id}:pitch:${version}`, from: ['queued', 'pitch_ready'],
        event: { kind: 'pitch', actor: 'system', actorName: null, payload: { stage: 'pitch_ready', version } },
        update: { stage: 'pitch_ready', pitchVersion: version },
      }, async (tx) => {
        await tx.pitchVersion.create({ data: { productionId: production.id, version, workspaceId: workspace.id, pitch: { title: `v${version}` } } });
      });
    }

    const viaPrisma = await db.production.findUniqueOrThrow({
      where: { id: production.id },
      include: { pitches: { where: { version: 2 } }, events: { orderBy: { seq: 'asc' } } },
    });
    const fast = await findProductionFor(db, production.id, account.id, { timeline: true });
    expect(fast).toEqual({ ...viaPrisma, role: 'owner' });
    expect(fast?.pitches[0]?.pitch).toEqual({ title: 'v2' });

    expect((await findProductionFor(db, production.id, stranger.account.id))?.role).toBeNull();
    expect((await findProductionFor(db, production.id, account.id))?.events).toEqual([]);
    expect(await findProductionFor(db, crypto.randomUUID(), account.id)).toBeNull();
  });
});
