import { ScheduleNotFoundError, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import { tsToMs } from '@temporalio/common';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { createEventPublisher, createProductionActivities, createWebhookActivities, sendLinkEmails, type LinkEmailDeps } from '@vp/activities';
import { setMember, createAccount } from '@vp/accounts';
import { Brief, taskQueue, WebhookEventPayload, workflowIds, type SubscribableEventType } from '@vp/contracts';
import type { Db } from '@vp/db';
import { readLinkToken } from '@vp/links';
import { RecipientRefused, type Mailer, type MailMessage } from '@vp/mail';
import { createBuiltinWriter } from '@vp/pitch';
import { insertProduction } from '@vp/productions';
import { productionWorkflows, productionWorkflowSettings, webhookWorkflows } from '@vp/temporal-client';
import { failWrites, seedAccount, test, testConfig, waitFor } from '@vp/testing';
import { verifyWebhook } from '@vp/webhook-verify';
import { createPing, createSecretBox, deliveryRef, insertEndpoint, webhookSettings, type SecretBox } from '@vp/webhooks';
import { startReceiver, type Answer, type Receiver } from '@vp/webhooks/testing';
import { greenlightUpdate } from '@vp/workflows/definitions';
import { startTestWorkers } from './testing/test-workers.ts';

// Short values for the policy: retries after 200 ms and 400 ms, 500 ms to answer, off after 3 failures.
const POLICY = {
  WEBHOOK_RETRY_SCHEDULE_MS: '200,400', WEBHOOK_TIMEOUT_MS: '500', WEBHOOK_DISABLE_AFTER_FAILURES: '3', WEBHOOK_DISABLE_AFTER_MS: '0', ALLOW_PRIVATE_URLS: 'true',
  // The outbox sweep every second, for deliveries unattempted for a second.
  WEBHOOK_SWEEP_INTERVAL_MS: '1000',
};

const mail: MailMessage[] = [];
const mailer: Mailer = { send: async (message) => void mail.push(message) };
let receiver: Receiver;
/** How each endpoint path answers (200 unless told). */
const answers = new Map<string, () => Answer>();
beforeAll(async () => {
  receiver = await startReceiver((request) => answers.get(request.path)?.() ?? { status: 200 });
});
afterAll(() => receiver.close());

type Env = { config: ReturnType<typeof testConfig>; client: Client; db: Db; box: SecretBox };

/** The delivery workflows on this file's task queues. */
const deliveriesOf = (env: Env) => webhookWorkflows(env.client, { taskQueuePrefix: env.config.temporal.taskQueuePrefix, ...env.config.webhooks });

const it = test.extend('env', { scope: 'file' }, async ({ database }, { onCleanup }): Promise<Env> => {
  const { config, client, close } = await startTestWorkers(database, { env: POLICY, mailer, webhookTransport: { ca: receiver.ca } });
  onCleanup(close);
  return { config, client, db: database.db, box: createSecretBox(config.secrets.webhookKey) };
});

/** Requests the receiver got at one path, parsed. */
const at = (path: string) => receiver.received.filter((r) => r.path === path);
const typesAt = (path: string) => at(path).map((r) => r.headers['service-event-type']);
let paths = 0;

async function endpoint(env: Env, workspaceId: string, options: { events?: SubscribableEventType[]; enabled?: boolean } = {}) {
  const path = `/hook-${++paths}`;
  const { row, secret } = await insertEndpoint(env.db, env.box, { workspaceId, url: `https://localhost:${receiver.port}${path}`, events: options.events });
  if (options.enabled === false) await env.db.webhookEndpoint.update({ where: { id: row.id }, data: { enabled: false } });
  return { id: row.id, secret, path };
}

async function production(env: Env, workspace: { id: string }, accountId: string) {
  const ws = await env.db.workspace.findUniqueOrThrow({ where: { id: workspace.id } });
  const { production: row } = await insertProduction(env.db, {
    workspace: ws, createdBy: accountId, actor: { actor: 'key:test', actorName: 'Test' }, sourceKind: 'api', greenlightMode: 'manual',
    brief: Brief.parse({
      intent: 'Announce faster exports in release 2.4',
      context: 'Exports are now twice as fast thanks to a streaming encoder.',
      code: [{ path: 'src/export/encoder.ts', source: 'export function encode() { /* the secret sauce */ }\n', status: 'modified', additions: 40, score: 0.9 }],
    }),
  });
  await productionWorkflows(env.client, productionWorkflowSettings(env.config)).start({ productionId: row.id, workspaceId: row.workspaceId, greenlightMode: 'manual' });
  const handle = env.client.workflow.getHandle(workflowIds.production(row.id));
  return { id: row.id, handle };
}

const stage = async (db: Db, id: string) => (await db.production.findUniqueOrThrow({ where: { id } })).stage;

describe('publishing (spec: Events)', () => {
  it('sends each announced stage change once to every enabled endpoint of the workspace subscribed to it; quiet stages send nothing', async ({ env }) => {
    const { account, workspace } = await seedAccount(env.db, { credits: 100 });
    const defaults = await endpoint(env, workspace.id);
    const progress = await endpoint(env, workspace.id, { events: ['production.greenlit', 'production.progress'] });
    const off = await endpoint(env, workspace.id, { enabled: false });
    const elsewhere = await endpoint(env, (await seedAccount(env.db)).workspace.id);

    const p = await production(env, workspace, account.id);
    await waitFor(() => at(defaults.path).length === 1, { what: 'the pitch_ready event' });
    const [request] = at(defaults.path);
    expect(verifyWebhook({ payload: request!.body, header: request!.headers['service-signature'], secret: defaults.secret })).toMatchObject({ ok: true });
    const payload = WebhookEventPayload.parse(JSON.parse(request!.body));
    expect(payload).toMatchObject({ type: 'production.pitch_ready', workspaceId: workspace.id, data: { production: { id: p.id, stage: 'pitch_ready' } } });
    expect(request!.headers['service-event-id']).toBe(payload.id);
    expect(payload.data.production!.brief.code[0]).toMatchObject({ path: 'src/export/encoder.ts', source: '', patch: null, sourceOmitted: true });
    expect(payload.data.pitchMarkdown).toContain(payload.data.production!.pitch!.title);
    const token = new URL(payload.data.links.greenlight!).pathname.split('/').at(-1)!;
    expect(readLinkToken(env.config.secrets.links, token)).toMatchObject({ productionId: p.id, pitchVersion: 1, recipient: { kind: 'webhook', endpointId: defaults.id } });

    await p.handle.executeUpdate(greenlightUpdate, { args: [{ actor: 'key:test', actorName: 'Test' }] });
    await waitFor(async () => (await stage(env.db, p.id)) === 'making');
    await waitFor(() => typesAt(progress.path).length === 2, { what: 'greenlit and progress' });
    await waitFor(() => typesAt(defaults.path).length === 2, { what: 'greenlit' });
    expect(typesAt(defaults.path)).toEqual(['production.pitch_ready', 'production.greenlit']);
    expect(typesAt(progress.path).sort()).toEqual(['production.greenlit', 'production.progress']);
    expect(at(off.path)).toHaveLength(0);
    expect(at(elsewhere.path)).toHaveLength(0);
    expect(await env.db.webhookEvent.count({ where: { productionId: p.id } })).toBe(3); // pitch_ready, greenlit, progress
  });

  it('publishes once when the publishing step is retried, and a lost dispatch is healed by the retry', async ({ env }) => {
    const { account, workspace } = await seedAccount(env.db, { credits: 100 });
    const hook = await endpoint(env, workspace.id);
    const p = await production(env, workspace, account.id);
    await waitFor(() => at(hook.path).length === 1);

    // The decline step, run twice as Temporal would retry it after a lost reply.
    let dispatches = 0;
    const real = createEventPublisher({ db: env.db, deliveries: deliveriesOf(env), settings: webhookSettings(env.config) });
    const lossy = { ...real, dispatch: async (...args: Parameters<typeof real.dispatch>) => { if (dispatches++ > 0) await real.dispatch(...args); } };
    const activities = createProductionActivities({ db: env.db, writer: createBuiltinWriter(), events: lossy, appUrl: env.config.appUrl, linkSecret: env.config.secrets.links });
    const input = { productionId: p.id, reason: 'Not this release', actor: 'key:test', actorName: 'Test' };
    expect(await activities.decline(input)).toEqual({ applied: true }); // committed; its dispatch is lost
    expect(await activities.decline(input)).toEqual({ applied: true }); // the retry dispatches
    expect(await activities.decline(input)).toEqual({ applied: true });
    // One event, one delivery, attempted once (every send is claimed on the delivery first): nothing more can go out.
    const declined = { endpointId: hook.id, event: { type: 'production.declined' as const } };
    await waitFor(async () => (await env.db.webhookDelivery.findFirst({ where: declined }))?.status === 'succeeded', { what: 'the declined event delivered' });
    expect(await env.db.webhookEvent.count({ where: { productionId: p.id, type: 'production.declined' } })).toBe(1);
    expect(await env.db.webhookDelivery.findMany({ where: declined })).toMatchObject([{ attempts: 1 }]);
    expect(typesAt(hook.path)).toEqual(['production.pitch_ready', 'production.declined']);
  });

  it('delivers an event whose workflow start was lost for good: the outbox sweep starts it', async ({ env }) => {
    const { account, workspace } = await seedAccount(env.db, { credits: 100 });
    const hook = await endpoint(env, workspace.id);
    const p = await production(env, workspace, account.id);
    await waitFor(() => at(hook.path).length === 1);

    // The decline step commits its event, and no start ever follows (the worker died right after).
    const real = createEventPublisher({ db: env.db, deliveries: deliveriesOf(env), settings: webhookSettings(env.config) });
    const lost = { ...real, dispatch: async () => {} };
    const activities = createProductionActivities({ db: env.db, writer: createBuiltinWriter(), events: lost, appUrl: env.config.appUrl, linkSecret: env.config.secrets.links });
    expect(await activities.decline({ productionId: p.id, reason: 'Not this release', actor: 'key:test', actorName: 'Test' })).toEqual({ applied: true });
    await waitFor(() => at(hook.path).length === 2, { what: 'the declined event, started by the sweep', timeoutMs: 15_000 });
    expect(typesAt(hook.path)).toEqual(['production.pitch_ready', 'production.declined']);
    const declined = { endpointId: hook.id, event: { type: 'production.declined' as const } };
    await waitFor(async () => (await env.db.webhookDelivery.findFirstOrThrow({ where: declined })).status === 'succeeded', { what: 'the delivery recorded' });
    expect(await env.db.webhookDelivery.findFirstOrThrow({ where: declined })).toMatchObject({ attempts: 1 });
  });

  it('keeps one sweep schedule at the configured interval, and removes it when the interval becomes 0 (no sweep)', async ({ env }) => {
    const taskQueuePrefix = `sweep-${Date.now()}`;
    const schedule = env.client.schedule.getHandle(workflowIds.outboxSweep(taskQueuePrefix));
    const { ensureOutboxSweep } = webhookWorkflows(env.client, { ...env.config.webhooks, taskQueuePrefix });
    await ensureOutboxSweep(60_000);
    await ensureOutboxSweep(30_000);
    expect((await schedule.describe()).spec.intervals).toMatchObject([{ every: 30_000 }]);
    await ensureOutboxSweep(0);
    await expect(schedule.describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);
    await ensureOutboxSweep(0);
  });

  it('e-mails the pitch to each owner and editor once, with links of their own; viewers get none', async ({ env }) => {
    const { account, workspace } = await seedAccount(env.db, { credits: 100 });
    const editor = (await createAccount(env.db, { email: `editor-${Date.now()}@example.test` })).account;
    const viewer = (await createAccount(env.db, { email: `viewer-${Date.now()}@example.test` })).account;
    await setMember(env.db, { workspaceId: workspace.id, accountId: editor.id, role: 'editor' });
    await setMember(env.db, { workspaceId: workspace.id, accountId: viewer.id, role: 'viewer' });
    const p = await production(env, workspace, account.id);
    await waitFor(() => mail.filter((m) => m.text.includes(p.id)).length === 2, { what: 'two e-mails' });
    const sent = mail.filter((m) => m.text.includes(p.id));
    expect(sent.map((m) => m.to).sort()).toEqual([account.email, editor.email].sort());
    for (const message of sent) {
      expect(message.subject).toMatch(/^Pitch ready: /);
      const link = /https?:\/\/\S+\/go\/(\S+)\?action=greenlight/.exec(message.text)!;
      expect(readLinkToken(env.config.secrets.links, link[1]!)).toMatchObject({ productionId: p.id, pitchVersion: 1, recipient: { kind: 'email', email: message.to } });
    }
    // Each try reports every recipient: one silent for 2 minutes is retried; a long list has 30.
    const scheduled = (await pitchEmailsSent(env, p.id)).activityTaskScheduledEventAttributes!;
    expect([tsToMs(scheduled.heartbeatTimeout), tsToMs(scheduled.startToCloseTimeout)]).toEqual([120_000, 1_800_000]);
    // Sending again (a retried activity) sends nothing new.
    expect(await sendLinkEmails(linkEmailDeps(env, mailer, 2), { productionId: p.id, pitchVersion: 1 })).toEqual({ sent: 0 });
    expect(mail.filter((m) => m.text.includes(p.id))).toHaveLength(2);
    expect(await env.db.linkEmail.findMany({ where: { productionId: p.id } })).toEqual(expect.arrayContaining([expect.objectContaining({ status: 'sent' })]));
  });

  it('sends a recipient once when recording the send fails for a moment: the record is tried again', async ({ env }) => {
    const { account, workspace } = await seedAccount(env.db, { credits: 100 });
    const editor = (await createAccount(env.db, { email: `unrecorded-${Date.now()}@example.test` })).account;
    await setMember(env.db, { workspaceId: workspace.id, accountId: editor.id, role: 'editor' });
    // The first write that records a send to the editor fails, as it would with the database away for a moment.
    await failWrites(env.db, { table: 'link_emails', on: 'UPDATE', when: `NEW.email = '${editor.email.toLowerCase()}' AND NEW.status = 'sent'` });
    const p = await production(env, workspace, account.id);
    await waitFor(() => mail.some((m) => m.to === editor.email && m.text.includes(p.id)), { what: 'the editor\'s e-mail' });
    // The e-mails' activity ends once its retry has found nothing left to send.
    await pitchEmailsSent(env, p.id);
    expect(mail.filter((m) => m.text.includes(p.id)).map((m) => m.to).sort()).toEqual([account.email, editor.email].sort());
  }, 60_000);

  it('e-mails a recipient whose try died mid-send (a worker killed) on the next try, under the same message id', async ({ env }) => {
    const { account, workspace, p, input } = await pitchEmailed(env);
    // An editor joins; a try that e-mails them never returns, as a killed worker's would not.
    const editor = await editorJoins(env, workspace.id, 'killed');
    const lost: MailMessage[] = [];
    void sendLinkEmails(linkEmailDeps(env, { send: (message) => { lost.push(message); return new Promise(() => {}); } }, 1), input);
    await waitFor(() => lost.length === 1, { what: 'the send that never returns' });
    expect(await sendLinkEmails(linkEmailDeps(env, mailer, 2), input)).toEqual({ sent: 1 });
    const delivered = mail.filter((m) => m.to === editor.email && m.text.includes(p.id));
    expect(delivered.map((m) => m.id)).toEqual([lost[0]!.id]);
    expect(await env.db.linkEmail.findUniqueOrThrow({ where: { productionId_pitchVersion_email: { ...input, email: editor.email.toLowerCase() } } }))
      .toMatchObject({ status: 'sent', attempt: 2 });
    // The owner's e-mail, recorded as sent by the workflow's try, is not sent again.
    expect(mail.filter((m) => m.to === account.email && m.text.includes(p.id))).toHaveLength(1);
  });

  it('records an address the mail server refuses for good as refused, and never tries it again', async ({ env }) => {
    const { workspace, input } = await pitchEmailed(env);
    const gone = await editorJoins(env, workspace.id, 'gone');
    let beats = 0;
    const refusing: Mailer = { send: async () => { throw new RecipientRefused("Can't send mail - all recipients were rejected: 550 5.1.1 No such mailbox"); } };
    // Not a failure of the try: nothing is left that another try could send.
    expect(await sendLinkEmails({ ...linkEmailDeps(env, refusing, 1), heartbeat: () => void beats++ }, input)).toEqual({ sent: 0 });
    expect(beats).toBe(2); // one for each owner and editor
    expect(await env.db.linkEmail.findUniqueOrThrow({ where: { productionId_pitchVersion_email: { ...input, email: gone.email.toLowerCase() } } }))
      .toMatchObject({ status: 'refused', error: expect.stringMatching(/550 5\.1\.1 No such mailbox/) });
    const sent: MailMessage[] = [];
    expect(await sendLinkEmails(linkEmailDeps(env, { send: async (message) => void sent.push(message) }, 2), input)).toEqual({ sent: 0 });
    expect(sent).toEqual([]);
  });

  it('keeps reporting while a slow mail server takes its time over one recipient', async ({ env }) => {
    const { workspace, input } = await pitchEmailed(env);
    await editorJoins(env, workspace.id, 'slow');
    let beats = 0;
    const slow: Mailer = { send: () => new Promise((resolve) => setTimeout(resolve, 200)) };
    const deps = { ...linkEmailDeps(env, slow, 1), heartbeat: () => void beats++, heartbeatEveryMs: 20 };
    expect(await sendLinkEmails(deps, input)).toEqual({ sent: 1 });
    // Two before the recipients, and one every 20 ms of the 200 ms send.
    expect(beats).toBeGreaterThanOrEqual(2 + 5);
  });

  it('a try timed out but still running stops once the next has begun, and never undoes its records', async ({ env }) => {
    const { account, workspace, input } = await pitchEmailed(env);
    for (const name of ['slow-a', 'slow-b']) await editorJoins(env, workspace.id, name);
    const claimedBy = async (attempt: number) => env.db.linkEmail.count({ where: { ...input, attempt } });
    const gate = () => {
      let open!: () => void;
      return { opened: new Promise<void>((resolve) => { open = resolve; }), open: () => open() };
    };
    // Try 1's first send hangs past its time; when it at last answers, it is a failure.
    const late = gate();
    const tried: string[] = [];
    const first = sendLinkEmails(linkEmailDeps(env, { send: async (message) => {
      tried.push(message.to);
      await late.opened;
      throw new Error('421 Service not available');
    } }, 1), input);
    await waitFor(() => tried.length === 1, { what: 'the first try\'s send' });
    // Try 2 takes that recipient over, and is sending to them when try 1 hears back.
    const sending = gate();
    let waited = false;
    const second = sendLinkEmails(linkEmailDeps(env, { send: async (message) => {
      if (!waited) await sending.opened;
      waited = true;
      await mailer.send(message);
    } }, 2), input);
    await waitFor(async () => (await claimedBy(2)) === 1, { what: 'the second try\'s claim' });
    late.open();
    await expect(first).rejects.toThrow(/421/);
    expect(tried).toHaveLength(1); // it claimed no one else
    sending.open();
    expect(await second).toEqual({ sent: 2 });
    const rows = await env.db.linkEmail.findMany({ where: { ...input, email: { not: account.email.toLowerCase() } } });
    expect(rows.map((r) => [r.status, r.attempt])).toEqual([['sent', 2], ['sent', 2]]);
    expect(await sendLinkEmails(linkEmailDeps(env, mailer, 3), input)).toEqual({ sent: 0 });
  });
});

/** A production whose pitch was e-mailed to its owner, the e-mails' activity over. */
async function pitchEmailed(env: Env) {
  const { account, workspace } = await seedAccount(env.db, { credits: 100 });
  const p = await production(env, workspace, account.id);
  await waitFor(() => mail.some((m) => m.to === account.email && m.text.includes(p.id)), { what: 'the owner\'s e-mail' });
  await pitchEmailsSent(env, p.id);
  return { account, workspace, p, input: { productionId: p.id, pitchVersion: 1 } };
}

/** The pitch e-mails' activity of a production's workflow, once it has completed: its scheduling event. */
async function pitchEmailsSent(env: Env, productionId: string) {
  return waitFor(async () => {
    const events = (await env.client.workflow.getHandle(workflowIds.production(productionId)).fetchHistory()).events ?? [];
    const scheduled = events.find((event) => event.activityTaskScheduledEventAttributes?.activityType?.name === 'emailPitchLinks');
    const completed = scheduled && events.some((event) => String(event.activityTaskCompletedEventAttributes?.scheduledEventId ?? '') === String(scheduled.eventId));
    return completed && scheduled;
  }, { what: 'the pitch e-mails sent' });
}

/** An editor joins the workspace after its pitch was e-mailed. */
async function editorJoins(env: Env, workspaceId: string, name: string) {
  const editor = (await createAccount(env.db, { email: `${name}-${Date.now()}@example.test` })).account;
  await setMember(env.db, { workspaceId, accountId: editor.id, role: 'editor' });
  return editor;
}

/** What the link e-mails' activity is given on its try `attempt`. */
function linkEmailDeps(env: Env, sender: Mailer, attempt: number): LinkEmailDeps {
  return { db: env.db, mailer: sender, linkSecret: env.config.secrets.links, appUrl: env.config.appUrl, attempt };
}

describe('the delivery workflow (spec: Receiver answer and retries)', () => {
  async function pingThrough(env: Env, answer: () => Answer) {
    const { workspace } = await seedAccount(env.db);
    const hook = await endpoint(env, workspace.id);
    const row = await env.db.webhookEndpoint.findUniqueOrThrow({ where: { id: hook.id } });
    answers.set(hook.path, answer);
    const delivery = await createPing(env.db, row, env.config.appUrl);
    await deliveriesOf(env).startDelivery(deliveryRef(delivery));
    return { hook, delivery };
  }
  const deliveryOf = (env: Env, id: string) => env.db.webhookDelivery.findUniqueOrThrow({ where: { id } });

  it('holds a delivery while webhooks are switched off on the server, and sends it once they are back on', async ({ env, database }) => {
    // Workers of their own with the switch off, on task queues of their own.
    const off = await startTestWorkers(database, { env: { ...POLICY, WEBHOOKS_ENABLED: 'false' }, webhookTransport: { ca: receiver.ca } });
    const { workspace } = await seedAccount(env.db);
    const hook = await endpoint(env, workspace.id);
    const delivery = await createPing(env.db, await env.db.webhookEndpoint.findUniqueOrThrow({ where: { id: hook.id } }), env.config.appUrl);
    // Never attempted, it is what the outbox sweep starts; with the switch off it starts nothing.
    const offDeliveries = webhookWorkflows(env.client, { taskQueuePrefix: off.config.temporal.taskQueuePrefix, ...off.config.webhooks });
    const offActivities = createWebhookActivities({ db: env.db, settings: webhookSettings(off.config), mailer: null, sweep: { deliveries: offDeliveries, afterMs: 0 } });
    expect(await offActivities.sweepDeliveries()).toEqual({ started: 0, restarted: 0 });
    await offDeliveries.startDelivery(deliveryRef(delivery));
    try {
      await waitFor(async () => (await deliveryOf(env, delivery.id)).lastError?.includes('switched off on this server'), { what: 'the hold' });
      // Several checks of the switch: each waits on a timer in the delivery's workflow.
      const checks = async () => (await env.client.workflow.getHandle(workflowIds.webhookDelivery(delivery.id)).fetchHistory()).events!
        .filter((event) => event.timerFiredEventAttributes).length;
      await waitFor(async () => (await checks()) >= 3, { what: 'three checks of the switch', timeoutMs: 30_000, intervalMs: 200 });
      expect(at(hook.path)).toHaveLength(0);
      expect(await deliveryOf(env, delivery.id)).toMatchObject({ status: 'pending', attempts: 0 });
    } finally {
      await off.close();
    }
    // The switch back on (workers restarted with it, on the same task queues): the same delivery goes out.
    const on = await startTestWorkers(database, { config: { ...off.config, switches: { ...off.config.switches, webhooks: true } }, webhookTransport: { ca: receiver.ca } });
    try {
      // Its workflow's next task may first wait out the stopped worker's sticky queue (10 s).
      await waitFor(async () => (await deliveryOf(env, delivery.id)).status === 'succeeded', { what: 'the delivery', timeoutMs: 45_000 });
      expect(at(hook.path)).toHaveLength(1);
      expect(await deliveryOf(env, delivery.id)).toMatchObject({ attempts: 1, lastError: null });
    } finally {
      await on.close();
    }
  }, 90_000);

  it('goes on with a delivery whose workflow was terminated between attempts: the outbox sweep starts it again where it was', async ({ env }) => {
    let calls = 0;
    const { hook, delivery } = await pingThrough(env, () => (++calls === 1 ? { status: 500, body: 'boom' } : { status: 200 }));
    await waitFor(async () => (await deliveryOf(env, delivery.id)).attempts === 1, { what: 'the first attempt' });
    // An operator terminates the workflow during its wait: nothing would make the retry.
    await env.client.workflow.getHandle(workflowIds.webhookDelivery(delivery.id)).terminate('by an operator');
    // Once overdue past an attempt's whole time, the sweep (every second here) starts it again, at attempt 2.
    await waitFor(async () => (await deliveryOf(env, delivery.id)).status === 'succeeded', { what: 'the retry', timeoutMs: 45_000 });
    expect(at(hook.path)).toHaveLength(2);
    expect(await deliveryOf(env, delivery.id)).toMatchObject({ attempts: 2, lastResponseStatus: 200 });
  }, 90_000);

  it('retries a failing receiver on the schedule and succeeds on its first 2xx', async ({ env }) => {
    let calls = 0;
    const { hook, delivery } = await pingThrough(env, () => (++calls <= 2 ? { status: 500, body: 'boom' } : { status: 202 }));
    await waitFor(async () => (await deliveryOf(env, delivery.id)).status === 'succeeded', { what: 'success' });
    const times = at(hook.path).map((r) => r.at);
    expect(times).toHaveLength(3);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(200);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(400);
    expect(new Set(at(hook.path).map((r) => r.headers['service-event-id']))).toEqual(new Set([delivery.eventId]));
    expect(await deliveryOf(env, delivery.id)).toMatchObject({ attempts: 3, lastResponseStatus: 202, lastError: null, nextAttemptAt: null });
  });

  it('is exhausted after the last retry, and switches the endpoint off at the failure threshold', async ({ env }) => {
    const { hook, delivery } = await pingThrough(env, () => ({ status: 500 }));
    await waitFor(async () => (await deliveryOf(env, delivery.id)).status === 'exhausted', { what: 'exhaustion' });
    expect(at(hook.path)).toHaveLength(3);
    expect(await deliveryOf(env, delivery.id)).toMatchObject({ attempts: 3, lastResponseStatus: 500, nextAttemptAt: null, deliveredAt: null });
    expect(await env.db.webhookEndpoint.findUniqueOrThrow({ where: { id: hook.id } })).toMatchObject({
      enabled: false, consecutiveFailures: 3, disabledReason: expect.stringMatching(/^Switched off after 3 failed attempts in a row/),
    });
  });

  it('gives a slow receiver 500 ms; a late 2xx is not a success, and the retry carries the same event id', async ({ env }) => {
    let calls = 0;
    const { hook, delivery } = await pingThrough(env, () => (++calls === 1 ? { status: 200, delayMs: 1500 } : { status: 200 }));
    await waitFor(async () => (await deliveryOf(env, delivery.id)).status === 'succeeded', { what: 'success' });
    expect(at(hook.path).map((r) => r.headers['service-event-id'])).toEqual([delivery.eventId, delivery.eventId]);
    expect(await deliveryOf(env, delivery.id)).toMatchObject({ attempts: 2, lastError: null });
    expect(await env.db.webhookDelivery.count({ where: { eventId: delivery.eventId } })).toBe(1);
  });

  it('never delivers an event again once it succeeded, even if its workflow is started again', async ({ env }) => {
    const { hook, delivery } = await pingThrough(env, () => ({ status: 200 }));
    await waitFor(async () => (await deliveryOf(env, delivery.id)).status === 'succeeded');
    await deliveriesOf(env).startDelivery(deliveryRef(delivery));
    // Even a new run under the same id (past Temporal's own duplicate check) finds the delivery done.
    const run = await env.client.workflow.start('webhookDeliveryWorkflow', {
      workflowId: `${workflowIds.webhookDelivery(delivery.id)}-again`, taskQueue: taskQueue('webhooks', env.config.temporal.taskQueuePrefix),
      args: [{ deliveryId: delivery.id, retryScheduleMs: [200], timeoutMs: 500 }], workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
    });
    await run.result();
    expect(at(hook.path)).toHaveLength(1);
  });
});
