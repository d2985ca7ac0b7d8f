/**
 * bench/webhooks: events fanned out to 10 local HTTPS receivers (in a process of their own).
 * First-attempt latency from the stage change to the receiver (p50, p99), each change once the
 * previous one's deliveries have finished, and deliveries per second, beside a baseline in the
 * same run: the same signed POSTs sent by a plain loop, without Temporal or the database.
 * Goals: p50 under 100 ms; at least a third of the baseline's rate.
 *
 *   pnpm tsx bench/webhooks/run.ts [--latency 30] [--throughput 100] [--concurrency 20]
 */
import { fork } from 'node:child_process';
import { parseArgs } from 'node:util';
import { Client } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { createAccount } from '@vp/accounts';
import { createEventPublisher, createProductionActivities } from '@vp/activities';
import { loadConfig } from '@vp/config';
import { Brief, RESPONSE_BODY_LIMIT_BYTES, workflowIds } from '@vp/contracts';
import { createDb } from '@vp/db';
import { grant } from '@vp/ledger';
import { fetchPublic } from '@vp/net';
import { createBuiltinWriter } from '@vp/pitch';
import { insertProduction } from '@vp/productions';
import { webhookWorkflows } from '@vp/temporal-client';
import { insertEndpoint, createSecretBox, deliveryBody, signedHeaders, webhookSettings, type StoredEventData } from '@vp/webhooks';
import { createWorkers, runWorkers } from '@vp/worker';
import { startBenchStack } from '../lib/stack.ts';
import { goal, ms, percentile, pool } from '../lib/stats.ts';
import type { ReceiversMessage } from './receivers.ts';

const { values } = parseArgs({ options: { latency: { type: 'string', default: '30' }, throughput: { type: 'string', default: '100' }, concurrency: { type: 'string', default: '20' } } });
const LATENCY_EVENTS = Number(values.latency);
const THROUGHPUT_EVENTS = Number(values.throughput);
const CONCURRENCY = Number(values.concurrency);
const RECEIVERS = 10;

Runtime.install({ logger: new DefaultLogger('WARN') });
const stack = await startBenchStack();
const config = loadConfig({
  DATABASE_URL: stack.databaseUrl, TEMPORAL_ADDRESS: stack.temporalAddress, TEMPORAL_TASK_QUEUE_PREFIX: 'bench', LOG_LEVEL: 'silent',
  // A throw-away stack on this machine: the built-in development secrets do.
  ALLOW_DEV_SECRETS: 'true',
  // The receivers are on this machine.
  ALLOW_PRIVATE_URLS: 'true',
});
const settings = webhookSettings(config);
const db = createDb(stack.databaseUrl, { max: 20 });
const native = await NativeConnection.connect({ address: stack.temporalAddress });
// Clients on the workers' own connection, as the worker process builds its publisher's.
const client = new Client({ connection: native });

/** When each production's event reached each receiver (indexed as it arrives, so waiting costs nothing). */
const arrivedAt = new Map<string, number[]>();
const receiverProcess = fork(new URL('./receivers.ts', import.meta.url), [String(RECEIVERS)], { execArgv: ['--import', 'tsx'] });
const { urls, ca } = await new Promise<{ urls: string[]; ca: string }>((resolve, reject) => {
  receiverProcess.on('message', (message: ReceiversMessage) => {
    if ('ready' in message) resolve(message.ready);
    else arrivedAt.set(message.arrived.productionId, [...(arrivedAt.get(message.arrived.productionId) ?? []), message.arrived.at]);
  });
  receiverProcess.once('exit', (code) => reject(new Error(`the receivers exited (${code})`)));
});
const workers = await createWorkers({ config, connection: native, db, writer: createBuiltinWriter(), mailer: null, webhookTransport: { ca } });
// For reference: what the Temporal server alone allows for workflows shaped like a delivery.
const touched: number[] = [];
const floorWorker = await Worker.create({
  connection: native, taskQueue: 'bench-floor', workflowsPath: new URL('./floor-workflow.ts', import.meta.url).pathname,
  activities: { touch: async () => void touched.push(Date.now()) },
});
const stop = new AbortController();
const running = runWorkers([...workers, floorWorker], stop.signal);

// One workspace with 10 endpoints, one per receiver, subscribed to the default events.
const { account, workspace } = await createAccount(db, { email: 'bench@example.test', name: 'Bench' });
await grant(db, account.id, 10_000_000);
await db.workspace.update({ where: { id: workspace.id }, data: { pitchCap: 1_000_000 } });
const box = createSecretBox(settings.serverKey);
const endpoints = await Promise.all(urls.map((url) => insertEndpoint(db, box, { workspaceId: workspace.id, url })));

// The stage change: the production step activity (decline), publishing through the outbox as the worker's does.
const deliveries = webhookWorkflows(client, { taskQueuePrefix: config.temporal.taskQueuePrefix, ...settings, eager: true });
const events = createEventPublisher({ db, deliveries, settings });
const steps = createProductionActivities({ db, writer: createBuiltinWriter(), events, appUrl: config.appUrl, linkSecret: settings.linkSecret });
const ws = await db.workspace.findUniqueOrThrow({ where: { id: workspace.id } });
async function newProduction(): Promise<string> {
  const { production } = await insertProduction(db, {
    workspace: ws, createdBy: account.id, actor: { actor: 'system', actorName: null }, sourceKind: 'api', greenlightMode: 'manual',
    brief: Brief.parse({ intent: 'Announce faster exports in release 2.4', context: 'Exports are now twice as fast thanks to a streaming encoder.' }),
  });
  return production.id;
}

const changedAt = new Map<string, number>();
async function stageChange(productionId: string) {
  changedAt.set(productionId, Date.now());
  await steps.decline({ productionId, reason: null, actor: 'system', actorName: null });
}

const arrived = (ids: string[]) => ids.reduce((sum, id) => sum + (arrivedAt.get(id)?.length ?? 0), 0);

/** Waits until `count()` is `expected`; a run that never gets there fails with the count, not a hang. */
async function until(what: string, count: () => number, expected: number, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (count() !== expected) {
    if (Date.now() > deadline) throw new Error(`${what}: ${count()} of ${expected} after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** Waits until workflows have finished; a run where they never do fails, not hangs. */
async function finished(what: string, handles: { result(): Promise<unknown> }[], timeoutMs = 120_000) {
  const late = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: still running after ${timeoutMs / 1000} s`)), timeoutMs).unref());
  await Promise.race([Promise.all(handles.map((handle) => handle.result())), late]);
}

/** Waits until the delivery workflows of a production's events have finished. */
async function settled(productionId: string) {
  const deliveries = await db.webhookDelivery.findMany({ where: { event: { productionId } }, select: { id: true } });
  await finished('deliveries', deliveries.map(({ id }) => client.workflow.getHandle(workflowIds.webhookDelivery(id))));
}

async function serviceLatency(count: number): Promise<number[]> {
  const ids = await Promise.all(Array.from({ length: count }, newProduction));
  const samples: number[] = [];
  for (const id of ids) {
    await stageChange(id);
    await until('deliveries arrived', () => arrived([id]), RECEIVERS);
    await settled(id);
    samples.push(...arrivedAt.get(id)!.map((at) => at - changedAt.get(id)!));
  }
  return samples;
}

async function serviceThroughput(count: number): Promise<{ rate: number; ids: string[] }> {
  const ids = await Promise.all(Array.from({ length: count }, newProduction));
  const started = Date.now();
  await pool(ids, CONCURRENCY, (id) => stageChange(id));
  await until('deliveries arrived', () => arrived(ids), count * RECEIVERS);
  const last = Math.max(...ids.flatMap((id) => arrivedAt.get(id)!));
  return { rate: (count * RECEIVERS) / ((last - started) / 1000), ids };
}

/** The same signed POSTs, from the events the service recorded: build, sign, send, one after another. */
async function baseline(ids: string[], concurrency: number): Promise<{ rate: number; latencies: number[] }> {
  const recorded = await db.webhookEvent.findMany({ where: { productionId: { in: ids } } });
  const jobs = recorded.flatMap((event) => endpoints.map(({ row, secret }) => ({ event, row, secret })));
  const latencies: number[] = [];
  const started = Date.now();
  await pool(jobs, concurrency, async ({ event, row, secret }) => {
    const t0 = Date.now();
    const body = deliveryBody({ ...event, data: event.data as StoredEventData }, row.id, settings);
    const headers = signedHeaders({ secrets: [secret], eventId: event.id, type: event.type, body, now: new Date() });
    const response = await fetchPublic(row.url, {
      method: 'POST', headers, body, timeoutMs: settings.timeoutMs, maxBytes: RESPONSE_BODY_LIMIT_BYTES, onTooLarge: 'truncate', allowPrivate: true, ca,
    });
    if (response.status >= 300) throw new Error(`baseline POST answered ${response.status}`);
    latencies.push(Date.now() - t0);
  });
  return { rate: jobs.length / ((Date.now() - started) / 1000), latencies };
}

/** The floor's fan-out latency: 10 empty workflows started at once, until each has run its activity. */
async function temporalFloorLatency(count: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const before = touched.length;
    const started = Date.now();
    const handles = await Promise.all(Array.from({ length: RECEIVERS }, (_, j) =>
      client.workflow.start('emptyDeliveryWorkflow', { taskQueue: 'bench-floor', workflowId: `floor-latency-${i}-${j}`, args: [], requestEagerStart: true })));
    await until('empty workflows run', () => touched.length - before, RECEIVERS);
    samples.push(...touched.slice(before).map((at) => at - started));
    await finished('empty workflows', handles);
  }
  return samples;
}

/** Workflows per second for the floor: as many as the deliveries, started 10 at a time as a fan-out does. */
async function temporalFloor(count: number): Promise<number> {
  const before = touched.length;
  const started = Date.now();
  await pool(Array.from({ length: count / RECEIVERS }), CONCURRENCY, (_, i) => Promise.all(Array.from({ length: RECEIVERS }, (_, j) =>
    client.workflow.start('emptyDeliveryWorkflow', { taskQueue: 'bench-floor', workflowId: `floor-${i}-${j}`, args: [], requestEagerStart: true }))));
  await until('empty workflows run', () => touched.length - before, count);
  return count / ((Math.max(...touched.slice(before)) - started) / 1000);
}

try {
  await serviceLatency(3); // warm up: JIT, pools, sticky workflow caches, TLS
  const latency = await serviceLatency(LATENCY_EVENTS);
  const throughput = await serviceThroughput(THROUGHPUT_EVENTS);
  const loop = await baseline(throughput.ids, 1);
  const concurrent = await baseline(throughput.ids, CONCURRENCY);
  const floorLatency = await temporalFloorLatency(LATENCY_EVENTS);
  const floor = await temporalFloor(THROUGHPUT_EVENTS * RECEIVERS);
  const failed = await db.webhookDelivery.count({ where: { status: { not: 'succeeded' } } });

  const p50 = percentile(latency, 50);
  const ratio = throughput.rate / loop.rate;
  console.log([
    `bench/webhooks — ${RECEIVERS} receivers; ${LATENCY_EVENTS} events one at a time, then ${THROUGHPUT_EVENTS} at concurrency ${CONCURRENCY}`,
    '',
    '                              p50         p99         deliveries/s',
    `  service (Temporal)          ${ms(p50).padEnd(11)} ${ms(percentile(latency, 99)).padEnd(11)} ${throughput.rate.toFixed(1)}   (stage change → receiver, first attempt)`,
    `  baseline: plain loop        ${ms(percentile(loop.latencies, 50)).padEnd(11)} ${ms(percentile(loop.latencies, 99)).padEnd(11)} ${loop.rate.toFixed(1)}   (the same signed POSTs, one after another)`,
    `  for reference: ${String(CONCURRENCY).padEnd(2)} at once   ${ms(percentile(concurrent.latencies, 50)).padEnd(11)} ${ms(percentile(concurrent.latencies, 99)).padEnd(11)} ${concurrent.rate.toFixed(1)}`,
    `  for reference: Temporal alone ${ms(percentile(floorLatency, 50)).padEnd(11)} ${ms(percentile(floorLatency, 99)).padEnd(11)} ${floor.toFixed(1)}   (empty workflows shaped like a delivery, 10 at a time, same server)`,
    '',
    `  rate ratio (service / plain loop): ${ratio.toFixed(2)}   (service / ${CONCURRENCY} at once: ${(throughput.rate / concurrent.rate).toFixed(2)})`,
    `  deliveries not succeeded: ${failed}`,
    '',
    goal(`p50 stage change → receiver under 100 ms (${ms(p50)})`, p50 < 100),
    goal(`deliveries per second at least a third of the baseline's (${ratio.toFixed(2)})`, ratio >= 1 / 3),
  ].join('\n'));
} finally {
  stop.abort();
  await running;
  receiverProcess.disconnect();
  await native.close();
  await db.$disconnect();
  await stack.stop();
}
