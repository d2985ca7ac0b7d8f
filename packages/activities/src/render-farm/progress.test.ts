import { describe, expect } from 'vitest';
import { Brief, type Phase } from '@vp/contracts';
import type { Db } from '@vp/db';
import { createProduction } from '@vp/productions';
import { failWrites, seedAccount, test } from '@vp/testing';
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

async function report(db: Db, productionId: string, attempt: number, phase: Phase) {
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

  test('tries a write again when the database blinks: the phase\'s note (and so its event) is not lost', async ({ database }) => {
    const id = await making(database.db);
    const outage = await failWrites(database.db, { table: 'production_events', on: 'INSERT', when: `NEW.kind = 'note' AND NEW.production_id = '${id}'`, times: 2 });
    await report(database.db, id, 1, 'building');
    expect(await outage.tried()).toBe(3);
    const notes = await database.db.productionEvent.findMany({ where: { productionId: id, kind: 'note' } });
    expect(notes.map((n) => n.stepKey)).toEqual([`${id}:render:1:building`]);
  });

  test('a retry that starts over after a try failed while exporting moves the stage back to making, even when that write is tried again', async ({ database }) => {
    const id = await making(database.db);
    await report(database.db, id, 1, 'exporting');
    const outage = await failWrites(database.db, { table: 'production_events', on: 'INSERT', when: `NEW.kind = 'stage' AND NEW.production_id = '${id}'`, times: 1 });
    await report(database.db, id, 2, 'preparing');
    expect(await outage.tried()).toBe(2);
    expect((await database.db.production.findUniqueOrThrow({ where: { id } })).stage).toBe('making');
  });

  test('gives a write up after its retries, and then tries the others once: a try never waits long on a database that is down', async ({ database }) => {
    const id = await making(database.db);
    const outage = await failWrites(database.db, { table: 'production_events', on: 'INSERT', when: `NEW.kind = 'note' AND NEW.production_id = '${id}'`, times: 100 });
    const progress = productionProgress({ db: database.db }, { productionId: id, attempt: 1, maxAttempts: 3 });
    progress.phase('preparing');
    progress.phase('planning');
    progress.phase('building');
    await expect(progress.flush()).rejects.toThrow('the database is unavailable');
    expect(await outage.tried()).toBe(4 + 1 + 1);
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

  test('the stage follows the try: exporting once it exports, making again when a retry starts over, never moved by a replaced try', async ({ database }) => {
    const id = await making(database.db);
    const stage = async () => (await database.db.production.findUniqueOrThrow({ where: { id } })).stage;
    await report(database.db, id, 1, 'exporting');
    expect(await stage()).toBe('exporting');
    // The first try failed while exporting; the second starts over.
    await report(database.db, id, 2, 'preparing');
    expect(await stage()).toBe('making');
    // The first try, given up by the server, reports its export once more before it hears.
    await report(database.db, id, 1, 'exporting');
    expect(await stage()).toBe('making');
    await report(database.db, id, 2, 'exporting');
    expect(await stage()).toBe('exporting');
    const moves = await database.db.productionEvent.findMany({ where: { productionId: id, kind: 'stage' }, orderBy: { seq: 'asc' } });
    expect(moves.map((m) => (m.payload as { stage: string }).stage)).toEqual(['exporting', 'making', 'exporting']);
  });

  test('a failed try that another follows says so at once: retrying, between phases, one note', async ({ database }) => {
    const id = await making(database.db);
    const first = productionProgress({ db: database.db }, { productionId: id, attempt: 1, maxAttempts: 3 });
    first.phase('preparing');
    first.retryFollows();
    first.retryFollows(); // a retried write adds nothing
    await first.flush();
    const row = await database.db.production.findUniqueOrThrow({ where: { id } });
    expect(row.queue).toEqual({ phase: null, startedAt: null, retrying: true, lastProgress: 'Try 1 of 3 did not succeed; the next starts in a few seconds.' });
    const notes = await database.db.productionEvent.findMany({ where: { productionId: id, kind: 'note' }, orderBy: { seq: 'asc' } });
    expect(notes.map((n) => n.payload)).toEqual([{ phase: 'preparing' }, { phase: null }]);
    // The next try takes over; a late word from the first changes nothing.
    await report(database.db, id, 2, 'preparing');
    const late = productionProgress({ db: database.db }, { productionId: id, attempt: 1, maxAttempts: 3 });
    late.retryFollows();
    await late.flush();
    expect((await database.db.production.findUniqueOrThrow({ where: { id } })).queue).toMatchObject({ phase: 'preparing', retrying: true });
  });
});
