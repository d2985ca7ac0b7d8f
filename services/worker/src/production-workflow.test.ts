import { WorkflowFailedError, WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { describe, expect } from 'vitest';
import { Brief, workflowIds, type BriefInput, type Stage } from '@vp/contracts';
import type { Db } from '@vp/db';
import { balance, grant } from '@vp/ledger';
import type { Mailer, MailMessage } from '@vp/mail';
import { createBuiltinWriter, createOpenAiWriter } from '@vp/pitch';
import { startChatServer } from '@vp/pitch/testing';
import { insertProduction } from '@vp/productions';
import { productionWorkflows, productionWorkflowSettings } from '@vp/temporal-client';
import { failWrites, seedAccount, test, testConfig, waitFor } from '@vp/testing';
import { cancelUpdate, commentUpdate, declineUpdate, greenlightUpdate } from '@vp/workflows/definitions';
import { startTestWorkers } from './testing/test-workers.ts';

/** The link e-mails the workers send. */
const mail: MailMessage[] = [];
const mailer: Mailer = { send: async (message) => void mail.push(message) };

const it = test.extend('env', { scope: 'file' }, async ({ database }, { onCleanup }) => {
  const { config, client, close } = await startTestWorkers(database, { mailer });
  onCleanup(close);
  return { config, client, db: database.db };
});

type Env = { config: ReturnType<typeof testConfig>; client: Client; db: Db };

const BRIEF: BriefInput = {
  intent: 'Announce faster exports in release 2.4',
  context: 'Exports are now twice as fast thanks to a streaming encoder.',
  code: [{ path: 'src/export/encoder.ts', source: 'export function encode() {}\n', status: 'modified', additions: 40, deletions: 12, score: 0.9 }],
  format: { durationMs: 10_000 },
};
const ME = { actor: 'key:test', actorName: 'Test User' };

async function startProduction(
  env: Env,
  options: { credits?: number; brief?: BriefInput; mode?: 'manual' | 'auto'; beforeStart?: (productionId: string) => Promise<unknown> } = {},
) {
  const seeded = await seedAccount(env.db, { credits: options.credits ?? 100 });
  const workspace = await env.db.workspace.findUniqueOrThrow({ where: { id: seeded.workspace.id } });
  const { production } = await insertProduction(env.db, {
    workspace, createdBy: seeded.account.id, actor: ME, sourceKind: 'api',
    brief: Brief.parse(options.brief ?? BRIEF), greenlightMode: options.mode ?? 'manual',
  });
  await options.beforeStart?.(production.id);
  await productionWorkflows(env.client, productionWorkflowSettings(env.config)).start({ productionId: production.id, workspaceId: production.workspaceId, greenlightMode: options.mode ?? 'manual' });
  const handle = env.client.workflow.getHandle(workflowIds.production(production.id));
  return { ...seeded, id: production.id, handle };
}

const stageOf = async (db: Db, id: string) => (await db.production.findUniqueOrThrow({ where: { id } })).stage as Stage;
const reachStage = (db: Db, id: string, stage: Stage) =>
  waitFor(async () => (await stageOf(db, id)) === stage, { what: `stage ${stage}` });
const timeline = async (db: Db, id: string) =>
  (await db.productionEvent.findMany({ where: { productionId: id }, orderBy: { seq: 'asc' } })).map((e) => [e.kind, (e.payload as { stage?: string }).stage]);

/** The refusal type of a failed update (`stage`, `credits`, `revisions`, `cap`). */
async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof WorkflowUpdateFailedError && error.cause instanceof ApplicationFailure) return error.cause.type ?? 'untyped';
    throw error;
  }
  throw new Error('the update was accepted');
}

describe('the production workflow', () => {
  it('writes a pitch in the background: queued → writing_pitch → pitch_ready, one timeline entry each', async ({ env }) => {
    const p = await startProduction(env);
    await reachStage(env.db, p.id, 'pitch_ready');
    const row = await env.db.production.findUniqueOrThrow({ where: { id: p.id }, include: { pitches: true } });
    expect(row.pitchVersion).toBe(1);
    expect(row.pitches).toHaveLength(1);
    expect(await timeline(env.db, p.id)).toEqual([['created', 'queued'], ['stage', 'writing_pitch'], ['pitch', 'pitch_ready']]);
    expect(await balance(env.db, p.account.id)).toBe(100); // the pitch is free
  });

  it('greenlight charges once, queues the video, and refuses a second greenlight', async ({ env }) => {
    const p = await startProduction(env);
    await reachStage(env.db, p.id, 'pitch_ready');
    await p.handle.executeUpdate(greenlightUpdate, { args: [{ ...ME, pitchVersion: 1 }] });
    expect(['greenlit', 'making']).toContain(await stageOf(env.db, p.id));
    const row = await env.db.production.findUniqueOrThrow({ where: { id: p.id } });
    expect(row.creditsCharged).toBe(10);
    expect(row.projectId).toMatch(/^[0-9a-f-]{36}$/);
    expect(row.greenlight).toMatchObject({ mode: 'manual', actor: 'key:test', pitchVersion: 1 });
    expect(await balance(env.db, p.account.id)).toBe(90);
    expect(await refusal(p.handle.executeUpdate(greenlightUpdate, { args: [ME] }))).toBe('stage');
    await reachStage(env.db, p.id, 'making'); // waits for the render farm; nothing fakes a delivery
    expect(await balance(env.db, p.account.id)).toBe(90);
  });

  it('refuses a greenlight for an out-of-date pitch version, changing nothing', async ({ env }) => {
    const p = await startProduction(env);
    await reachStage(env.db, p.id, 'pitch_ready');
    expect(await refusal(p.handle.executeUpdate(greenlightUpdate, { args: [{ ...ME, pitchVersion: 2 }] }))).toBe('stage');
    expect(await stageOf(env.db, p.id)).toBe('pitch_ready');
  });

  it('refuses a greenlight the credits do not cover (402) and leaves the pitch standing', async ({ env }) => {
    const p = await startProduction(env, { credits: 10 });
    await reachStage(env.db, p.id, 'pitch_ready');
    await env.db.creditEntry.create({ data: { accountId: p.account.id, kind: 'grant', amount: -5, note: 'spent elsewhere' } });
    expect(await refusal(p.handle.executeUpdate(greenlightUpdate, { args: [ME] }))).toBe('credits');
    expect(await stageOf(env.db, p.id)).toBe('pitch_ready');
    expect(await env.db.creditEntry.count({ where: { productionId: p.id } })).toBe(0);
    await grant(env.db, p.account.id, 5);
    await p.handle.executeUpdate(greenlightUpdate, { args: [ME] });
    expect(await balance(env.db, p.account.id)).toBe(0);
  });

  it('two greenlights at once: exactly one wins, one charge', async ({ env }) => {
    const p = await startProduction(env);
    await reachStage(env.db, p.id, 'pitch_ready');
    const results = await Promise.allSettled([
      p.handle.executeUpdate(greenlightUpdate, { args: [ME] }),
      p.handle.executeUpdate(greenlightUpdate, { args: [{ actor: 'email:a@example.test', actorName: 'a@example.test' }] }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(await env.db.creditEntry.count({ where: { productionId: p.id, kind: 'charge' } })).toBe(1);
  });

  it('comments write the next pitch version; three rounds, then 409 revisions', async ({ env }) => {
    const p = await startProduction(env);
    for (const [round, comment] of ['Make it shorter', 'Mention the streaming encoder', 'Drop the intro'].entries()) {
      await reachStage(env.db, p.id, 'pitch_ready');
      await p.handle.executeUpdate(commentUpdate, { args: [{ ...ME, comment, pitchVersion: round + 1 }] });
      await waitFor(async () => (await env.db.production.findUniqueOrThrow({ where: { id: p.id } })).pitchVersion === round + 2);
    }
    await reachStage(env.db, p.id, 'pitch_ready');
    const row = await env.db.production.findUniqueOrThrow({ where: { id: p.id } });
    expect(row.revisionsLeft).toBe(0);
    expect(await refusal(p.handle.executeUpdate(commentUpdate, { args: [{ ...ME, comment: 'One more?' }] }))).toBe('revisions');
    const kinds = (await timeline(env.db, p.id)).map(([kind]) => kind);
    expect(kinds.filter((k) => k === 'comment')).toHaveLength(3);
    expect(kinds.filter((k) => k === 'pitch')).toHaveLength(4);
  });

  it('declines before greenlight; after greenlight decline is 409 stage', async ({ env }) => {
    const a = await startProduction(env);
    await reachStage(env.db, a.id, 'pitch_ready');
    await a.handle.executeUpdate(declineUpdate, { args: [{ ...ME, reason: 'Not this release' }] });
    expect(await stageOf(env.db, a.id)).toBe('declined');
    expect(await a.handle.result()).toBe('declined');

    const b = await startProduction(env);
    await reachStage(env.db, b.id, 'pitch_ready');
    await b.handle.executeUpdate(greenlightUpdate, { args: [ME] });
    expect(await refusal(b.handle.executeUpdate(declineUpdate, { args: [ME] }))).toBe('stage');
  });

  it('a decline bound to a pitch version (a link) is refused once that pitch was answered by a comment', async ({ env }) => {
    const p = await startProduction(env);
    await reachStage(env.db, p.id, 'pitch_ready');
    await p.handle.executeUpdate(commentUpdate, { args: [{ ...ME, comment: 'Mention the streaming encoder', pitchVersion: 1 }] });
    expect(await refusal(p.handle.executeUpdate(declineUpdate, { args: [{ ...ME, pitchVersion: 1 }] }))).toBe('stage');
    await reachStage(env.db, p.id, 'pitch_ready');
    expect((await env.db.production.findUniqueOrThrow({ where: { id: p.id } })).pitchVersion).toBe(2);
  });

  it('cancel after greenlight refunds in full; a terminal production refuses cancel', async ({ env }) => {
    const p = await startProduction(env);
    await reachStage(env.db, p.id, 'pitch_ready');
    await p.handle.executeUpdate(greenlightUpdate, { args: [ME] });
    await reachStage(env.db, p.id, 'making');
    await p.handle.executeUpdate(cancelUpdate, { args: [{ ...ME, reason: 'Wrong release' }] });
    expect(await stageOf(env.db, p.id)).toBe('cancelled');
    expect(await balance(env.db, p.account.id)).toBe(100);
    const cancelled = await env.db.productionEvent.findFirstOrThrow({ where: { productionId: p.id, kind: 'cancelled' } });
    expect(cancelled.payload).toMatchObject({ stage: 'cancelled', reason: 'Wrong release', creditsRefunded: 10 });
    expect(await p.handle.result()).toBe('cancelled');
    // The workflow has ended: the gateway answers 409 from the read model's terminal stage.
  });

  it('a cancel that arrives with the greenlight ends the production: the video it started is stopped, the charge refunded', async ({ env }) => {
    for (let round = 0; round < 3; round++) {
      const p = await startProduction(env);
      await reachStage(env.db, p.id, 'pitch_ready');
      // Both at once: the cancel's step runs beside the one that starts the video.
      await Promise.allSettled([
        p.handle.executeUpdate(greenlightUpdate, { args: [ME] }),
        p.handle.executeUpdate(cancelUpdate, { args: [{ ...ME, reason: 'Changed our minds' }] }),
      ]);
      // No render worker polls here: a video left running would keep the workflow open.
      const ended = await Promise.race([p.handle.result(), new Promise((resolve) => setTimeout(resolve, 10_000, 'still running'))]);
      expect(ended).toBe('cancelled');
      expect(await stageOf(env.db, p.id)).toBe('cancelled');
      expect(await balance(env.db, p.account.id)).toBe(100);
    }
  });

  it('a workflow cancelled through Temporal (an operator) cancels its production as the API would: refunded, its video discarded', async ({ env }) => {
    // While its pitch awaits an answer: cancelled, nothing was charged.
    const waiting = await startProduction(env);
    await reachStage(env.db, waiting.id, 'pitch_ready');
    await waiting.handle.cancel();
    expect(await waiting.handle.result()).toBe('cancelled');
    expect(await stageOf(env.db, waiting.id)).toBe('cancelled');

    // While its video is made (no render worker polls here): cancelled, refunded in full.
    const making = await startProduction(env);
    await reachStage(env.db, making.id, 'pitch_ready');
    await making.handle.executeUpdate(greenlightUpdate, { args: [ME] });
    await reachStage(env.db, making.id, 'making');
    await making.handle.cancel();
    expect(await making.handle.result()).toBe('cancelled');
    expect(await stageOf(env.db, making.id)).toBe('cancelled');
    expect(await balance(env.db, making.account.id)).toBe(100);
    const cancelled = await env.db.productionEvent.findFirstOrThrow({ where: { productionId: making.id, kind: 'cancelled' } });
    expect(cancelled).toMatchObject({ actor: 'system', payload: { stage: 'cancelled', reason: 'Cancelled by the service\'s operators.', creditsRefunded: 10 } });
    // Whatever a render left of the video is discarded.
    const { events } = await making.handle.fetchHistory();
    const children = events?.map((e) => e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowType?.name).filter(Boolean);
    expect(children).toEqual(['discardVideoWorkflow']);
  });

  it('a workflow cancelled through Temporal after its delivery was recorded (the answer lost) keeps the delivery and its video', async ({ env }) => {
    const p = await startProduction(env);
    await reachStage(env.db, p.id, 'pitch_ready');
    await p.handle.executeUpdate(greenlightUpdate, { args: [ME] });
    await reachStage(env.db, p.id, 'making');
    // The delivery's step committed, and the workflow never heard so (its answer lost, the step still retrying).
    await env.db.production.update({ where: { id: p.id }, data: { stage: 'delivered' } });
    await p.handle.cancel();
    expect(await p.handle.result()).toBe('delivered');
    expect(await stageOf(env.db, p.id)).toBe('delivered');
    expect(await balance(env.db, p.account.id)).toBe(90);
    const { events } = await p.handle.fetchHistory();
    expect(events?.some((e) => e.startChildWorkflowExecutionInitiatedEventAttributes)).toBe(false);
  });

  it('refuses an update that arrives while an operator\'s cancel is being recorded: 409 stage, not a failure', async ({ env }) => {
    // Recording the cancel fails until the update has been answered: the workflow is cancelled but still open.
    let outage!: Awaited<ReturnType<typeof failWrites>>;
    const failCancelling = async (productionId: string) => {
      outage = await failWrites(env.db, {
        table: 'production_events', on: 'INSERT', when: `NEW.production_id = '${productionId}' AND NEW.kind = 'cancelled'`, times: 1000,
      });
    };
    const p = await startProduction(env, { beforeStart: failCancelling });
    await reachStage(env.db, p.id, 'pitch_ready');
    await p.handle.cancel();
    await waitFor(async () => (await outage.tried()) >= 1, { what: 'the cancel\'s first try' });
    expect(await refusal(p.handle.executeUpdate(greenlightUpdate, { args: [ME] }))).toBe('stage');
    await outage.end();
    expect(await p.handle.result()).toBe('cancelled');
    expect(await balance(env.db, p.account.id)).toBe(100);
  });

  it('a workflow cancelled through Temporal while its skip is still being recorded ends cancelled, as the database says', async ({ env }) => {
    // The writer finds nothing worth a video; showing that verdict fails for as long as the test lasts.
    let outage!: Awaited<ReturnType<typeof failWrites>>;
    const failShowing = async (productionId: string) => {
      outage = await failWrites(env.db, { table: 'production_events', on: 'INSERT', when: `NEW.production_id = '${productionId}' AND NEW.kind = 'pitch'`, times: 1000 });
    };
    const p = await startProduction(env, {
      brief: { intent: 'Update dependencies', code: [{ path: 'pnpm-lock.yaml', source: 'lockfileVersion: 9\n', additions: 300, deletions: 280 }] },
      beforeStart: failShowing,
    });
    await waitFor(async () => (await outage.tried()) >= 1, { what: 'the skip\'s first try' });
    await p.handle.cancel();
    expect(await p.handle.result()).toBe('cancelled');
    expect(await stageOf(env.db, p.id)).toBe('cancelled');
  });

  it('auto mode greenlights as soon as the pitch lands', async ({ env }) => {
    const p = await startProduction(env, { mode: 'auto' });
    await reachStage(env.db, p.id, 'making');
    const row = await env.db.production.findUniqueOrThrow({ where: { id: p.id } });
    expect(row.greenlight).toMatchObject({ mode: 'auto', actor: 'auto', actorName: 'Auto-greenlight' });
    expect(row.creditsCharged).toBe(10);
  });

  it('auto mode e-mails no greenlight links when it greenlights the pitch itself: nobody is asked to answer', async ({ env }) => {
    const p = await startProduction(env, { mode: 'auto' });
    await reachStage(env.db, p.id, 'making');
    // pitch_ready was published before the greenlight: e-mails started then would be under way by now.
    await expect(env.client.workflow.getHandle(workflowIds.linkEmails(p.id, 1)).describe()).rejects.toThrow(WorkflowNotFoundError);
    expect(mail.filter((m) => m.text.includes(p.id))).toEqual([]);
  });

  it('auto mode whose greenlight the credits do not cover e-mails the links: the pitch waits for a person', async ({ env }) => {
    // Enough credits to create the production; half of them spent before the pitch lands.
    const spendHalf = async (productionId: string) => {
      const { workspace } = await env.db.production.findUniqueOrThrow({ where: { id: productionId }, include: { workspace: true } });
      await env.db.creditEntry.create({ data: { accountId: workspace.ownerId, kind: 'grant', amount: -5, note: 'spent elsewhere' } });
    };
    const p = await startProduction(env, { mode: 'auto', credits: 10, beforeStart: spendHalf });
    await reachStage(env.db, p.id, 'pitch_ready');
    const email = await waitFor(() => mail.find((m) => m.text.includes(p.id)), { what: 'the link e-mail' });
    expect(email).toMatchObject({ to: p.account.email, subject: expect.stringMatching(/^Pitch ready: /) });
    expect(await stageOf(env.db, p.id)).toBe('pitch_ready');
  });

  it('skips a brief with nothing worth a video, charging nothing', async ({ env }) => {
    const p = await startProduction(env, {
      brief: { intent: 'Update dependencies', code: [{ path: 'pnpm-lock.yaml', source: 'lockfileVersion: 9\n', additions: 300, deletions: 280 }] },
    });
    await reachStage(env.db, p.id, 'skipped');
    expect(await p.handle.result()).toBe('skipped');
    expect(await balance(env.db, p.account.id)).toBe(100);
  });

  it('a retried greenlight step charges once (the activity is idempotent)', async ({ env }) => {
    const p = await startProduction(env);
    await reachStage(env.db, p.id, 'pitch_ready');
    const { createProductionActivities } = await import('@vp/activities');
    const acts = createProductionActivities({ db: env.db, writer: createBuiltinWriter(), appUrl: env.config.appUrl, linkSecret: env.config.secrets.links });
    const input = { productionId: p.id, pitchVersion: 1, projectId: crypto.randomUUID(), mode: 'manual' as const, ...ME };
    expect(await acts.greenlight(input)).toEqual({ applied: true });
    expect(await acts.greenlight(input)).toEqual({ applied: true }); // a retry after a lost reply
    expect(await env.db.creditEntry.count({ where: { productionId: p.id, kind: 'charge' } })).toBe(1);
    expect(await env.db.productionEvent.count({ where: { productionId: p.id, kind: 'greenlit' } })).toBe(1);
  });

  it('a database outage longer than a step\'s first tries delays the pitch; it does not fail the production', { timeout: 90_000 }, async ({ env }) => {
    // Showing the pitch fails five times in a row (~15 s of tries, which used to be all a step had).
    const failShowingFiveTimes = (productionId: string) => failWrites(env.db, {
      table: 'production_events', on: 'INSERT', when: `NEW.production_id = '${productionId}' AND NEW.kind = 'pitch'`, times: 5,
    });
    const p = await startProduction(env, { beforeStart: failShowingFiveTimes });
    const settled = await waitFor(async () => {
      const stage = await stageOf(env.db, p.id);
      return ['pitch_ready', 'failed'].includes(stage) && stage;
    }, { what: 'the pitch shown or the production failed', timeoutMs: 80_000 });
    expect(settled).toBe('pitch_ready');
    expect(await timeline(env.db, p.id)).toEqual([['created', 'queued'], ['stage', 'writing_pitch'], ['pitch', 'pitch_ready']]);
  });

  it('ends, failed, when its production does not exist (a create undone after a start whose answer was lost), instead of retrying for good', async ({ env }) => {
    const p = await startProduction(env, { beforeStart: (id) => env.db.production.delete({ where: { id } }) });
    let deadline: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      p.handle.result().then(() => 'completed', (error: WorkflowFailedError) => error.cause?.message),
      new Promise((resolve) => { deadline = setTimeout(resolve, 20_000, 'still running after 20 s'); }),
    ]);
    clearTimeout(deadline);
    expect(outcome).toBe(`Production ${p.id} does not exist`);
  });
});

describe('when the pitch writer cannot write', () => {
  it('the production fails with a readable error, and nothing is charged', async ({ database }) => {
    // The language model's vendor refuses our key: not worth retrying.
    const vendor = await startChatServer(() => ({ status: 401, json: { error: { message: 'Incorrect API key provided' } } }));
    const { config, client, close } = await startTestWorkers(database, {
      writer: createOpenAiWriter({ baseUrl: vendor.baseUrl, apiKey: 'sk-wrong', model: 'test-model', timeoutMs: 5000 }),
    });
    try {
      const p = await startProduction({ config, client, db: database.db });
      await reachStage(database.db, p.id, 'failed');
      const row = await database.db.production.findUniqueOrThrow({ where: { id: p.id } });
      expect(row.error).toBe('We could not write a pitch for this brief. Nothing was charged.');
      expect(await timeline(database.db, p.id)).toEqual([['created', 'queued'], ['stage', 'writing_pitch'], ['failed', 'failed']]);
      expect(await balance(database.db, p.account.id)).toBe(100);
      expect(await p.handle.result()).toBe('failed');
    } finally {
      await close();
      await vendor.close();
    }
  });
});

describe('when a decline is being recorded as the pitch lands', () => {
  it('the pitch waits for the decline: it is never shown or e-mailed', { timeout: 60_000 }, async ({ database }) => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    const builtin = createBuiltinWriter();
    const { config, client, close } = await startTestWorkers(database, {
      mailer, writer: { write: async (input) => { await held; return builtin.write(input); } },
    });
    try {
      // The decline's step fails four times (~15 s of tries): long enough for the workflow to
      // hear of the pitch meanwhile (a step holds its workflow task open up to ~8 s).
      let outage!: Awaited<ReturnType<typeof failWrites>>;
      const failDeclining = async (productionId: string) => {
        outage = await failWrites(database.db, {
          table: 'production_events', on: 'INSERT', when: `NEW.production_id = '${productionId}' AND NEW.kind = 'declined'`, times: 4,
        });
      };
      const env = { config, client, db: database.db };
      const p = await startProduction(env, { beforeStart: failDeclining });
      await reachStage(database.db, p.id, 'writing_pitch');
      const declined = p.handle.executeUpdate(declineUpdate, { args: [{ ...ME, reason: 'Not this release' }] });
      // The pitch lands once the decline's step is under way (its first try has failed).
      await waitFor(async () => (await outage.tried()) >= 1, { what: 'the decline\'s first try' });
      release();
      await declined;
      expect(await p.handle.result()).toBe('declined');
      expect(await timeline(database.db, p.id)).toEqual([['created', 'queued'], ['stage', 'writing_pitch'], ['declined', 'declined']]);
      // Never shown, so its greenlight links were never to be e-mailed.
      await expect(client.workflow.getHandle(workflowIds.linkEmails(p.id, 1)).describe()).rejects.toThrow(WorkflowNotFoundError);
    } finally {
      await close();
    }
  });
});
