import { NativeConnection } from '@temporalio/worker';
import { loadConfig, requireDatabaseUrl } from '@vp/config';
import { createDb } from '@vp/db';
import { HEARTBEAT_EVERY_MS, touchWhenHealthy } from '@vp/health';
import { mailerFromConfig } from '@vp/mail';
import { keepRunning } from '@vp/activities';
import { PRUNE_EVERY_MS, pruneDeliveryLog } from '@vp/webhooks';
import pino from 'pino';
import { createWorkers, runWorkers } from './worker.ts';
import { writerFromConfig } from './writer.ts';

const config = loadConfig();
const log = pino({ level: config.logLevel, base: { service: 'worker' } });
const db = createDb(requireDatabaseUrl(config));
const connection = await NativeConnection.connect({ address: config.temporal.address ?? 'localhost:7233' });
const mailer = mailerFromConfig(config);
if (!mailer && config.switches.links) log.warn('SMTP_URL is not set: greenlight links are not e-mailed (webhook payloads still carry theirs)');
const workers = await createWorkers({ config, connection, db, writer: writerFromConfig(config), mailer });

const stop = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop.abort());
// Pruned now and every hour, keeping WEBHOOK_RETENTION_DAYS of it (0 keeps it all).
const { retentionMs } = config.webhooks;
if (retentionMs > 0) {
  keepRunning(() => pruneDeliveryLog(db, new Date(Date.now() - retentionMs)), {
    everyMs: PRUNE_EVERY_MS, signal: stop.signal,
    onDone: (removed) => (removed.deliveries || removed.events) && log.info(removed, 'webhook delivery log pruned'),
    onError: (error) => log.warn({ err: error }, 'webhook delivery log not pruned; tried again later'),
  });
}
// The container's health check reads this file's age (HEALTH_FILE, docker-compose.yml).
const { healthFile } = config.worker;
if (healthFile) {
  keepRunning(() => touchWhenHealthy(healthFile, { temporal: () => connection.workflowService.getSystemInfo({}), database: () => db.$queryRaw`SELECT 1` }), {
    everyMs: HEARTBEAT_EVERY_MS, signal: stop.signal, onDone: () => {},
    onError: (error) => log.warn({ err: error }, 'not healthy: the heartbeat was not written'),
  });
}
log.info({ taskQueues: workers.map((w) => w.options.taskQueue) }, 'worker started');
await runWorkers(workers, stop.signal);
await connection.close();
await db.$disconnect();
log.info('worker stopped');
