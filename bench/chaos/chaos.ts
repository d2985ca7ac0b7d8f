import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Connection } from '@temporalio/client';
import pino from 'pino';
import { createAccount, createApiKey } from '@vp/accounts';
import { loadConfig } from '@vp/config';
import { taskQueue, workflowIds } from '@vp/contracts';
import { createDb } from '@vp/db';
import { createApp } from '@vp/gateway';
import { settleWorkflows } from '@vp/gateway/fuzz';
import { serveApp } from '@vp/gateway/server';
import { grant } from '@vp/ledger';
import { temporalClient } from '@vp/temporal-client';
import { pool } from '../lib/stats.ts';
import { productionDriver } from './drive.ts';
import { ledgerFigures, openProductionWorkflows, webhookFigures, type ChaosFigures } from './figures.ts';
import { startEventReceiver } from './receiver.ts';
import { killAtRandom, seededRandom, Supervised } from './supervisor.ts';

export type ChaosOptions = {
  productions: number;
  /** Productions under way at once. */
  concurrency: number;
  /** A SIGKILL every this many milliseconds, drawn at random between the two. */
  killEveryMs: [number, number];
  seed: number;
  databaseUrl: string;
  temporalAddress: string;
  workflowBundlePath: string;
  /** A scratch folder (DATA_DIR: the blob store of the videos). */
  dataDir: string;
  /** The run's secrets (LINK_SIGNING_SECRET, …, TEMPORAL_PAYLOAD_KEY), given to every process. */
  secrets: Record<string, string>;
  taskQueuePrefix: string;
  /** Past this, the run fails saying where its productions are. */
  deadlineMs?: number;
  log?: (line: string) => void;
};

// Short enough that what a killed process held comes back within seconds.
const CHAOS_ENV = {
  LOG_LEVEL: 'warn', ALLOW_PRIVATE_URLS: 'true',
  PRODUCTION_STEP_TIMEOUT_MS: '5000', RENDER_HEARTBEAT_TIMEOUT_MS: '5000', RENDER_SHUTDOWN_GRACE_MS: '10000',
  WEBHOOK_TIMEOUT_MS: '3000', WEBHOOK_SWEEP_INTERVAL_MS: '5000', WEBHOOK_RETRY_SCHEDULE_MS: '2000,5000,10000,30000,60000',
};
const WORKER = fileURLToPath(new URL('./worker-process.ts', import.meta.url));
const RENDER_WORKER = fileURLToPath(new URL('./render-worker-process.ts', import.meta.url));

/**
 * Issue 40's chaos: `productions` productions through the API, greenlit and made into videos,
 * while the worker (services/worker) and the render worker (services/render-worker), each in a
 * process of its own, are SIGKILLed at random moments and restarted at once. The gateway, the
 * database, Temporal and a webhook receiver stay up. Once every production has ended, the killing
 * stops and the run's workflows are let settle; then the ledger, the receiver and Temporal are read.
 */
export async function runChaos(options: ChaosOptions): Promise<ChaosFigures> {
  const log = options.log ?? (() => {});
  const started = Date.now();
  const env: Record<string, string> = {
    ...CHAOS_ENV, ...options.secrets, DATABASE_URL: options.databaseUrl, TEMPORAL_ADDRESS: options.temporalAddress,
    TEMPORAL_TASK_QUEUE_PREFIX: options.taskQueuePrefix, DATA_DIR: options.dataDir,
  };
  const config = loadConfig(env);
  const childEnv = { PATH: process.env.PATH ?? '', ...env };
  const services = [
    new Supervised('worker', { script: WORKER, args: [options.workflowBundlePath], env: childEnv }, log),
    new Supervised('render worker', { script: RENDER_WORKER, args: [options.workflowBundlePath], env: childEnv }, log),
  ];
  const db = createDb(options.databaseUrl, { max: 10 });
  const connection = await Connection.connect({ address: options.temporalAddress });
  const client = temporalClient(connection, config);
  const receiver = await startEventReceiver();
  const app = createApp({ config, db, temporal: () => client, log: pino({ level: 'silent' }) });
  const server = serveApp(app, { hostname: '127.0.0.1', port: 0, bodyIdleTimeoutMs: config.http.bodyIdleTimeoutMs });
  const chaos = new AbortController();
  try {
    await new Promise((resolve) => server.once('listening', resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    for (const service of services) service.start();
    await Promise.all(services.map((s) => s.whenReady()));

    // One owner with credits for every video, two webhook endpoints at the receiver.
    const { account } = await createAccount(db, { email: `chaos-${options.taskQueuePrefix}@example.test`, name: 'Chaos' });
    await grant(db, account.id, options.productions * 10);
    await db.workspace.updateMany({ where: { ownerId: account.id }, data: { pitchCap: 1_000_000 } });
    const keys = await Promise.all(Array.from({ length: Math.ceil(options.productions / 20) + 2 }, (_, i) =>
      createApiKey(db, { accountId: account.id, name: `chaos ${i}`, scopes: ['productions'] }).then((k) => k.apiKey)));
    const endpoints = new Map<string, string>();
    for (const path of ['/hook-a', '/hook-b']) {
      const res = await fetch(`${baseUrl}/v1/webhooks`, { method: 'POST', headers: { authorization: `Bearer ${keys[0]}`, 'content-type': 'application/json' }, body: JSON.stringify({ url: receiver.url(path) }) });
      if (res.status !== 201) throw new Error(`POST /v1/webhooks answered ${res.status}: ${await res.text()}`);
      endpoints.set(((await res.json()) as { endpoint: { id: string } }).endpoint.id, path);
    }

    const killing = killAtRandom(services, { everyMs: options.killEveryMs, random: seededRandom(options.seed), signal: chaos.signal, log });
    const drive = productionDriver({ baseUrl, db, keys, intent: 'Announce faster exports in release 2.4', durationMs: 5000, timeoutMs: 20 * 60_000 });
    let done = 0;
    const driving = pool(Array.from({ length: options.productions }, (_, i) => i), options.concurrency, async (n) => {
      const outcome = await drive(n);
      log(`production ${++done}/${options.productions} ${outcome.stage}`);
      return outcome;
    });
    const outcomes = await withinDeadline(driving, options.deadlineMs, () => stagesOf(db, account.id));
    chaos.abort();
    await killing;
    const seconds = (Date.now() - started) / 1000;
    const ids = outcomes.map((o) => o.id);

    // Every service up again; what the kills left half done is finished, then the run rests.
    await Promise.all(services.map((s) => s.whenReady()));
    await waitForDeliveries(db, ids);
    await client.schedule.getHandle(workflowIds.outboxSweep(options.taskQueuePrefix)).delete();
    const settled = await settleWorkflows(client, options.taskQueuePrefix, { quietMs: 15_000 });
    return {
      ...await ledgerFigures(db, ids),
      ...await webhookFigures(db, ids, receiver.arrivals, (id) => endpoints.get(id) ?? '', Math.min(...config.webhooks.retryScheduleMs)),
      openProductions: await openProductionWorkflows(client, taskQueue('productions', options.taskQueuePrefix)),
      retrying: settled.retrying,
      kills: { worker: services[0]!.kills, renderWorker: services[1]!.kills },
      greenlightRetries: outcomes.reduce((sum, o) => sum + Math.max(0, o.greenlightTries - 1), 0),
      seconds,
    };
  } finally {
    chaos.abort();
    await Promise.all(services.map((s) => s.stop()));
    server.closeAllConnections();
    server.close();
    await receiver.close();
    await connection.close();
    await db.$disconnect();
  }
}

/** Until no delivery of the run's events is pending (the outbox sweep starts any a kill left unstarted). */
async function waitForDeliveries(db: ReturnType<typeof createDb>, ids: string[], timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  while (await db.webhookDelivery.count({ where: { status: 'pending', event: { productionId: { in: ids } } } }) > 0) {
    if (Date.now() > deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** `work`, or past `deadlineMs` an error saying what `describe` finds. */
async function withinDeadline<T>(work: Promise<T>, deadlineMs: number | undefined, describe: () => Promise<string>): Promise<T> {
  if (!deadlineMs) return work;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => void describe().then((what) => reject(new Error(`The productions had not all ended after ${deadlineMs} ms: ${what}`)), reject), deadlineMs);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The run's productions by stage, and where the unfinished ones' videos are. */
async function stagesOf(db: ReturnType<typeof createDb>, accountId: string): Promise<string> {
  const rows = await db.production.findMany({ where: { createdBy: accountId }, select: { stage: true, queue: true } });
  const byStage: Record<string, number> = {};
  for (const row of rows) byStage[row.stage] = (byStage[row.stage] ?? 0) + 1;
  const queues = rows.filter((r) => r.queue).map((r) => JSON.stringify(r.queue));
  return `${JSON.stringify(byStage)}; queue status of those in production: ${queues.join(' ') || 'none'}`;
}
