/**
 * bench/fuzz: requests drawn with fast-check from the OpenAPI document the gateway serves, sent
 * over HTTP to the whole service (the real gateway, the real workers with the built-in pitch
 * writer, PostgreSQL and the Temporal dev server), to every route in turn; then the run's open
 * workflows are let settle. Goals: 0 answers 5xx, every answer within 5 s, every 4xx in the error
 * shape, and no workflow left retrying a step. The CI runs 2,000 of them
 * (services/gateway/src/fuzz/fuzz.test.ts).
 *
 *   pnpm tsx bench/fuzz/run.ts [--requests 10000] [--seed 40] [--concurrency 6]
 */
import { parseArgs } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import pino from 'pino';
import { createAccount, createApiKey } from '@vp/accounts';
import { loadConfig } from '@vp/config';
import { SCOPES } from '@vp/contracts';
import { createDb } from '@vp/db';
import { createApp } from '@vp/gateway';
import { fuzz, FUZZ_ENV, linkTokens, SAMPLE_PNG, settleWorkflows, summary } from '@vp/gateway/fuzz';
import { serveApp } from '@vp/gateway/server';
import { grant } from '@vp/ledger';
import { createBuiltinWriter } from '@vp/pitch';
import { createWorkers, runWorkers } from '@vp/worker';
import { startBenchStack } from '../lib/stack.ts';
import { goal } from '../lib/stats.ts';

const { values } = parseArgs({ options: {
  requests: { type: 'string', default: '10000' }, seed: { type: 'string', default: '40' }, concurrency: { type: 'string', default: '6' },
} });

Runtime.install({ logger: new DefaultLogger('WARN') });
const stack = await startBenchStack();
const config = loadConfig({
  ...FUZZ_ENV, DATABASE_URL: stack.databaseUrl, TEMPORAL_ADDRESS: stack.temporalAddress, TEMPORAL_TASK_QUEUE_PREFIX: 'fuzz', LOG_LEVEL: 'silent', DATA_DIR: stack.dir,
});
const db = createDb(stack.databaseUrl, { max: 20 });
const connection = await Connection.connect({ address: stack.temporalAddress });
const client = new Client({ connection });
const native = await NativeConnection.connect({ address: stack.temporalAddress });
// Link e-mails as in development: .eml files in the scratch folder's outbox.
const workers = await createWorkers({ config, connection: native, db, writer: createBuiltinWriter() });
const stop = new AbortController();
const running = runWorkers(workers, stop.signal);
const app = createApp({ config, db, temporal: () => client, log: pino({ level: 'silent' }) });
const server = serveApp(app, { hostname: '127.0.0.1', port: 0, bodyIdleTimeoutMs: config.http.bodyIdleTimeoutMs });
await new Promise((resolve) => server.once('listening', resolve));

// One owner with credits for some greenlights (most are refused: 402), no monthly pitch cap in reach.
const { account } = await createAccount(db, { email: 'fuzz@example.test', name: 'Fuzz' });
await grant(db, account.id, 1000);
await db.workspace.updateMany({ where: { ownerId: account.id }, data: { pitchCap: 1_000_000 } });

try {
  const report = await fuzz({
    baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    requests: Number(values.requests), seed: Number(values.seed), concurrency: Number(values.concurrency), keys: 40,
    newKey: async () => (await createApiKey(db, { accountId: account.id, name: 'fuzz', scopes: SCOPES })).apiKey,
    files: [SAMPLE_PNG], pathValues: linkTokens(config.secrets.links, account.email), maxFindings: 100,
  });
  const settled = await settleWorkflows(client, config.temporal.taskQueuePrefix);
  console.log([
    `bench/fuzz — ${report.sent} requests from the OpenAPI document, seed ${values.seed}, ${values.concurrency} at once`,
    '',
    summary(report, settled),
    '',
    goal('no answer 5xx (or none at all)', report.serverErrors.length === 0),
    goal('every answer within 5 s', report.slow.length === 0),
    goal('every 4xx in the error shape', report.unshaped.length === 0),
    goal('no workflow left retrying a step', settled.retrying.length === 0),
  ].join('\n'));
  for (const finding of [...report.serverErrors, ...report.slow, ...report.unshaped]) console.log(JSON.stringify(finding));
  for (const retrying of settled.retrying) console.log(JSON.stringify(retrying));
} finally {
  server.closeAllConnections();
  server.close();
  stop.abort();
  await running;
  await connection.close();
  await native.close();
  await db.$disconnect();
  await stack.stop();
}
