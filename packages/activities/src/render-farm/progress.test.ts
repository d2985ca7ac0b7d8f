import { describe, expect } from 'vitest';
import { Brief } from '@vp/contracts';
import type { Db } from '@vp/db';
import { createProduction } from '@vp/productions';
import { seedAccount, test } from '@vp/testing';
import { productionProgress } from './progress.ts';

/** A production whose video is being made. */
async function making(db: Db): Promise<string> {
  const { account, workspace } = await seedAccount(db, { credits: 100 });
  const { production } = await createProduction(db, {
    workspace: await db.workspace.findUniqueOrThrow({ where: { id: workspace.id } }), createdBy: account.id,
    actor: { actor: 'key:test', actorName: 'Test' }, sourceKind: 'api', brief: Brief.parse({ intent: 'Announce faster exports' }), greenlightMode: 'manual',
  });
  await db.production.update({ where: { id: production.id }, data: { stage: 'making' } });
  return production.id;
}

async function report(db: Db, productionId: string, attempt: number, phase: 'preparing' | 'building') {
  const progress = productionProgress({ db }, { productionId, attempt, maxAttempts: 3 });
  progress.phase(phase);
  await progress.flush();
}

describe('render progress in the read model', () => {
  test('writes each phase of a try: the queue status and one note each', async ({ database }) => {
    const id = await making(database.db);
    await report(database.db, id, 1, 'preparing');
    await report(database.db, id, 1, 'building');
    const row = await database.db.production.findUniqueOrThrow({ where: { id } });
    expect(row.queue).toMatchObject({ phase: 'building', retrying: false, lastProgress: 'Building the video frame by frame.' });
    const notes = await database.db.productionEvent.findMany({ where: { productionId: id, kind: 'note' }, orderBy: { seq: 'asc' } });
    expect(notes.map((n) => n.stepKey)).toEqual([`${id}:render:1:preparing`, `${id}:render:1:building`]);
  });

  test('drops what a replaced try reports once the next try has reported: the queue never goes back a try', async ({ database }) => {
    const id = await making(database.db);
    await report(database.db, id, 1, 'preparing');
    await report(database.db, id, 2, 'preparing');
    // The first try, given up by the server, reports once more before it hears.
    await report(database.db, id, 1, 'building');
    const row = await database.db.production.findUniqueOrThrow({ where: { id } });
    expect(row.queue).toMatchObject({ phase: 'preparing', retrying: true, lastProgress: expect.stringContaining('(Try 2 of 3.)') });
    const notes = await database.db.productionEvent.findMany({ where: { productionId: id, kind: 'note' }, orderBy: { seq: 'asc' } });
    expect(notes.map((n) => n.stepKey)).toEqual([`${id}:render:1:preparing`, `${id}:render:2:preparing`]);
  });
});
