import { describe, expect } from 'vitest';
import { Brief, workflowIds, type Phase } from '@vp/contracts';
import type { Db } from '@vp/db';
import { insertProduction } from '@vp/productions';
import { productionWorkflows, productionWorkflowSettings, type ProductionWorkflows } from '@vp/temporal-client';
import { failWrites, seedAccount, test, waitFor } from '@vp/testing';
import { greenlightUpdate } from '@vp/workflows/definitions';
import { startTestWorkers } from './testing/test-workers.ts';

/**
 * The render farm's reports as its production's workflow records them. Nothing polls the render
 * task queue here: the video's activity waits, and the test reports as its tries would.
 */
const it = test.extend('env', { scope: 'file' }, async ({ database }, { onCleanup }) => {
  const { config, client, close } = await startTestWorkers(database);
  onCleanup(close);
  return { db: database.db, workflows: productionWorkflows(client, productionWorkflowSettings(config)), client };
});

type Env = { db: Db; workflows: ProductionWorkflows; client: Awaited<ReturnType<typeof startTestWorkers>>['client'] };

/** A production whose video is being made (stage `making`). */
async function making(env: Env): Promise<string> {
  const { account, workspace } = await seedAccount(env.db, { credits: 100 });
  const { production } = await insertProduction(env.db, {
    workspace: await env.db.workspace.findUniqueOrThrow({ where: { id: workspace.id } }), createdBy: account.id,
    actor: { actor: 'key:test', actorName: 'Test' }, sourceKind: 'api', brief: Brief.parse({ intent: 'Announce faster exports' }), greenlightMode: 'manual',
  });
  await env.workflows.start({ productionId: production.id, workspaceId: production.workspaceId, greenlightMode: 'manual' });
  await waitFor(async () => (await row(env, production.id)).stage === 'pitch_ready', { what: 'the pitch' });
  await env.client.workflow.getHandle(workflowIds.production(production.id)).executeUpdate(greenlightUpdate, { args: [{ actor: 'key:test', actorName: 'Test' }] });
  await waitFor(async () => (await row(env, production.id)).stage === 'making', { what: 'making' });
  return production.id;
}

const row = (env: Env, id: string) => env.db.production.findUniqueOrThrow({ where: { id } });
const notes = (env: Env, id: string) => env.db.productionEvent.findMany({ where: { productionId: id, kind: 'note' }, orderBy: { seq: 'asc' } });
const startedAt = new Date().toISOString();

/** A try's report, sent as the render farm sends it; resolves once the workflow has recorded it (its note is in). */
async function report(env: Env, id: string, attempt: number, phase: Phase | null, recorded = true) {
  await env.workflows.reportProgress(id, { attempt, phase, startedAt });
  if (!recorded) return;
  const stepKey = `${id}:render:${attempt}:${phase ?? 'retry'}`;
  await waitFor(() => env.db.productionEvent.findUnique({ where: { stepKey } }).then(Boolean), { what: `the note ${stepKey}`, timeoutMs: 30_000 });
}

/** Waits until every report sent so far was taken up: a report of its own is recorded after them. */
async function settled(env: Env, id: string, attempt: number) {
  await report(env, id, attempt, 'polishing');
}

describe('render progress, recorded by the production\'s workflow', () => {
  it('writes each phase of a try: the queue status and one note each', async ({ env }) => {
    const id = await making(env);
    await report(env, id, 1, 'preparing');
    await report(env, id, 1, 'building');
    expect((await row(env, id)).queue).toMatchObject({ phase: 'building', retrying: false, lastProgress: 'Building the video frame by frame.' });
    expect((await notes(env, id)).map((n) => n.stepKey)).toEqual([`${id}:render:1:preparing`, `${id}:render:1:building`]);
  });

  it('tries a write again when the database blinks: the phase\'s note (and so its event) is not lost', async ({ env }) => {
    const id = await making(env);
    const outage = await failWrites(env.db, { table: 'production_events', on: 'INSERT', when: `NEW.kind = 'note' AND NEW.production_id = '${id}'`, times: 2 });
    await report(env, id, 1, 'building');
    expect(await outage.tried()).toBe(3);
    expect((await notes(env, id)).map((n) => n.stepKey)).toEqual([`${id}:render:1:building`]);
  });

  it('a retry that starts over after a try failed while exporting moves the stage back to making, even when that write is tried again', async ({ env }) => {
    const id = await making(env);
    await report(env, id, 1, 'exporting');
    const outage = await failWrites(env.db, { table: 'production_events', on: 'INSERT', when: `NEW.kind = 'stage' AND NEW.production_id = '${id}'`, times: 1 });
    await report(env, id, 2, 'preparing');
    expect(await outage.tried()).toBe(2);
    expect((await row(env, id)).stage).toBe('making');
  });

  it('drops what a replaced try reports once the next try has reported: the queue never goes back a try', async ({ env }) => {
    const id = await making(env);
    await report(env, id, 1, 'preparing');
    await report(env, id, 2, 'preparing');
    // The first try, given up by the server, reports once more before it hears.
    await report(env, id, 1, 'building', false);
    await settled(env, id, 2);
    expect((await notes(env, id)).map((n) => n.stepKey)).toEqual([`${id}:render:1:preparing`, `${id}:render:2:preparing`, `${id}:render:2:polishing`]);
    expect((await row(env, id)).queue).toMatchObject({ retrying: true, lastProgress: expect.stringContaining('(Try 2 of 3.)') });
  });

  it('the stage follows the try: exporting once it exports, making again when a retry starts over, never moved by a replaced try', async ({ env }) => {
    const id = await making(env);
    const stage = async () => (await row(env, id)).stage;
    await report(env, id, 1, 'exporting');
    expect(await stage()).toBe('exporting');
    // The first try failed while exporting; the second starts over.
    await report(env, id, 2, 'preparing');
    expect(await stage()).toBe('making');
    // The first try, given up by the server, reports its export once more before it hears.
    await report(env, id, 1, 'exporting', false);
    await report(env, id, 2, 'building');
    expect(await stage()).toBe('making');
    await report(env, id, 2, 'exporting');
    expect(await stage()).toBe('exporting');
    const moves = await env.db.productionEvent.findMany({ where: { productionId: id, kind: 'stage' }, orderBy: { seq: 'asc' } });
    expect(moves.map((m) => (m.payload as { stage: string }).stage)).toEqual(['writing_pitch', 'making', 'exporting', 'making', 'exporting']);
  });

  it('a failed try that another follows says so at once: retrying, between phases, one note', async ({ env }) => {
    const id = await making(env);
    await report(env, id, 1, 'preparing');
    await report(env, id, 1, null);
    await report(env, id, 1, null); // a report sent twice adds nothing
    expect((await row(env, id)).queue).toEqual({ phase: null, startedAt: null, retrying: true, lastProgress: 'Try 1 of 3 did not succeed; the next starts in a few seconds.' });
    expect((await notes(env, id)).map((n) => n.payload)).toEqual([{ phase: 'preparing' }, { phase: null }]);
    // The next try takes over; a late word from the first changes nothing.
    await report(env, id, 2, 'preparing');
    await report(env, id, 1, null, false);
    await settled(env, id, 2);
    expect((await row(env, id)).queue).toMatchObject({ phase: 'polishing', retrying: true });
  });
});
