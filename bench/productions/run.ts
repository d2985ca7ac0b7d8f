/**
 * bench/productions: create → pitch_ready latency and sustained creates per second with the
 * built-in writer, beside a minimal workflow with one activity on the same Temporal server.
 * Goals: p50 under 150 ms; the production path at least half the baseline's throughput.
 *
 * Without `--mail` no mail is configured, as in a deployment without SMTP_URL; with it, each
 * pitch is also e-mailed to the workspace's owner (files in the run's scratch folder).
 *
 *   pnpm tsx bench/productions/run.ts [--latency 40] [--throughput 150] [--concurrency 20] [--mail]
 */
import { serve } from '@hono/node-server';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { createApiKey } from '@vp/accounts';
import { loadConfig } from '@vp/config';
import { createDb } from '@vp/db';
import { grant } from '@vp/ledger';
import { outboxMailer } from '@vp/mail';
import { createBuiltinWriter } from '@vp/pitch';
import { createApp } from '@vp/gateway';
import { createWorkers, runWorkers } from '@vp/worker';
import { createAccount } from '@vp/accounts';
import { startBenchStack } from '../lib/stack.ts';
import { goal, ms, percentile, pool } from '../lib/stats.ts';

const { values } = parseArgs({ options: {
  latency: { type: 'string', default: '40' }, throughput: { type: 'string', default: '150' }, concurrency: { type: 'string', default: '20' }, mail: { type: 'boolean', default: false },
} });
const LATENCY_RUNS = Number(values.latency);
const THROUGHPUT_RUNS = Number(values.throughput);
const CONCURRENCY = Number(values.concurrency);

Runtime.install({ logger: new DefaultLogger('WARN') });
const stack = await startBenchStack();
const config = loadConfig({
  DATABASE_URL: stack.databaseUrl, TEMPORAL_ADDRESS: stack.temporalAddress, TEMPORAL_TASK_QUEUE_PREFIX: 'bench', LOG_LEVEL: 'silent',
  // A throw-away stack on this machine: the built-in development secrets do.
  ALLOW_DEV_SECRETS: 'true', DATA_DIR: stack.dir,
});
const db = createDb(stack.databaseUrl, { max: 20 });
const connection = await Connection.connect({ address: stack.temporalAddress });
const client = new Client({ connection });
const native = await NativeConnection.connect({ address: stack.temporalAddress });

// The service: real workers and the real gateway over HTTP.
const mailer = values.mail ? outboxMailer({ dir: config.mail.outboxDir, from: config.mail.from }) : null;
const workers = await createWorkers({ config, connection: native, db, writer: createBuiltinWriter(), mailer });
const baselineWorker = await Worker.create({
  connection: native, taskQueue: 'bench-baseline',
  workflowsPath: new URL('./baseline-workflow.ts', import.meta.url).pathname,
  activities: { touch: async () => {} },
});
const stop = new AbortController();
const running = runWorkers([...workers, baselineWorker], stop.signal);
const app = createApp({ config, db, temporal: () => client, log: pino({ level: 'silent' }) });
const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
await new Promise((resolve) => server.once('listening', resolve));
const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

// Enough keys that the 120-a-minute limit per key never throttles the run.
const { account } = await createAccount(db, { email: 'bench@example.test', name: 'Bench' });
await grant(db, account.id, 10_000_000);
await db.workspace.updateMany({ where: { ownerId: account.id }, data: { pitchCap: 1_000_000 } });
const keys = await Promise.all(Array.from({ length: Math.ceil((LATENCY_RUNS + THROUGHPUT_RUNS) / 60) + 5 }, (_, i) =>
  createApiKey(db, { accountId: account.id, name: `bench ${i}`, scopes: ['productions'] }).then((k) => k.apiKey)));
let used = 0;

const BRIEF = {
  intent: 'Announce faster exports in release 2.4',
  context: 'Exports are now twice as fast thanks to a streaming encoder. Large projects open in half the time.',
  code: [
    { path: 'src/export/encoder.ts', source: 'export function encode() {}\n', status: 'modified', additions: 120, deletions: 30, score: 0.9 },
    { path: 'src/export/queue.ts', source: 'export const queue = [];\n', status: 'added', additions: 60, score: 0.6 },
  ],
};

/** POSTs a brief; resolves with the production id and when the request was sent. */
async function create(): Promise<{ id: string; sentAt: number }> {
  const sentAt = Date.now();
  const res = await fetch(`${base}/v1/productions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${keys[used++ % keys.length]}`, 'content-type': 'application/json' },
    body: JSON.stringify({ brief: BRIEF }),
  });
  if (res.status !== 201) throw new Error(`create answered ${res.status}: ${await res.text()}`);
  return { id: ((await res.json()) as { production: { id: string } }).production.id, sentAt };
}

/** When each production's pitch landed (the timeline entry's time), once all have. */
async function pitchReadyTimes(ids: string[]): Promise<Map<string, number>> {
  for (;;) {
    const events = await db.productionEvent.findMany({ where: { productionId: { in: ids }, kind: 'pitch' }, select: { productionId: true, createdAt: true } });
    if (events.length === ids.length) return new Map(events.map((e) => [e.productionId, e.createdAt.getTime()]));
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function productionLatency(runs: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const { id, sentAt } = await create();
    const landed = (await pitchReadyTimes([id])).get(id)!;
    out.push(landed - sentAt);
  }
  return out;
}

async function productionThroughput(runs: number): Promise<number> {
  const started = Date.now();
  const created = await pool(Array.from({ length: runs }), CONCURRENCY, () => create());
  const landed = await pitchReadyTimes(created.map((c) => c.id));
  return runs / ((Math.max(...landed.values()) - started) / 1000);
}

let baselineCount = 0;
const baselineRun = () => client.workflow.execute('baselineWorkflow', { taskQueue: 'bench-baseline', workflowId: `baseline-${baselineCount++}`, args: [] });

async function baselineLatency(runs: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = Date.now();
    await baselineRun();
    out.push(Date.now() - t0);
  }
  return out;
}

async function baselineThroughput(runs: number): Promise<number> {
  const t0 = Date.now();
  await pool(Array.from({ length: runs }), CONCURRENCY, () => baselineRun());
  return runs / ((Date.now() - t0) / 1000);
}

try {
  // Warm up both paths (JIT, connection pools, sticky caches).
  await productionLatency(5);
  await baselineLatency(5);

  const prodLat = await productionLatency(LATENCY_RUNS);
  const baseLat = await baselineLatency(LATENCY_RUNS);
  // The baseline's rate before and after the production path's, averaged: whatever one phase
  // leaves the Temporal server to finish falls on both sides alike.
  const baseBefore = await baselineThroughput(THROUGHPUT_RUNS);
  const prodRate = await productionThroughput(THROUGHPUT_RUNS);
  const baseAfter = await baselineThroughput(THROUGHPUT_RUNS);
  const baseRate = (baseBefore + baseAfter) / 2;

  const p50 = percentile(prodLat, 50);
  const ratio = prodRate / baseRate;
  console.log([
    `bench/productions — ${LATENCY_RUNS} sequential creates, ${THROUGHPUT_RUNS} at concurrency ${CONCURRENCY}; link e-mails ${values.mail ? 'on' : 'off'}`,
    '',
    '                         p50         p99         throughput',
    `  production path        ${ms(p50).padEnd(11)} ${ms(percentile(prodLat, 99)).padEnd(11)} ${prodRate.toFixed(1)} /s   (HTTP create → pitch_ready)`,
    `  baseline               ${ms(percentile(baseLat, 50)).padEnd(11)} ${ms(percentile(baseLat, 99)).padEnd(11)} ${baseRate.toFixed(1)} /s   (one workflow, one activity; ${baseBefore.toFixed(1)} before, ${baseAfter.toFixed(1)} after)`,
    '',
    `  throughput ratio (production / baseline): ${ratio.toFixed(2)}`,
    `  latency ratio p50 (production / baseline): ${(p50 / percentile(baseLat, 50)).toFixed(2)}`,
    '',
    goal(`p50 create → pitch_ready under 150 ms (${ms(p50)})`, p50 < 150),
    goal(`throughput at least half the baseline's (${ratio.toFixed(2)})`, ratio >= 0.5),
  ].join('\n'));
} finally {
  stop.abort();
  await running;
  server.close();
  await connection.close();
  await native.close();
  await db.$disconnect();
  await stack.stop();
}
