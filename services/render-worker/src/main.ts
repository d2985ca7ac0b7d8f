import { NativeConnection } from '@temporalio/worker';
import { keepRunning } from '@vp/activities';
import { SWEEP_EVERY_MS, sweepUnstartedRenders, sweepWorkDir } from '@vp/activities/render-farm';
import { createBlobStore } from '@vp/blobs';
import { loadConfig, requireDatabaseUrl } from '@vp/config';
import { createDb } from '@vp/db';
import { HEARTBEAT_EVERY_MS, touchWhenHealthy } from '@vp/health';
import { checkRenderTools, selfCheckRender } from '@vp/render';
import { renderFarmWorkflows, temporalClient } from '@vp/temporal-client';
import pino from 'pino';
import { createRenderWorker, createStoryboardWorker, runRenderWorker } from './worker.ts';

const config = loadConfig();
const log = pino({ level: config.logLevel, base: { service: 'render-worker' } });
// Without its tools every render would fail: refuse to start, saying what to install.
const tools = await checkRenderTools().catch((error: unknown) => {
  log.fatal({ err: error }, 'the render tools are missing');
  process.exit(1);
});
// One render before taking work: a machine that cannot render (a font, an ffmpeg that fails,
// a work folder it cannot write) says so here instead of failing productions' tries, and the
// first production does not pay for what a process does once.
const selfCheckStarted = performance.now();
await selfCheckRender(config.render.workDir).catch((error: unknown) => {
  log.fatal({ err: error, workDir: config.render.workDir }, 'the self-check render failed');
  process.exit(1);
});
const selfCheckMs = Math.round(performance.now() - selfCheckStarted);
const db = createDb(requireDatabaseUrl(config), { max: 4 });
const connection = await NativeConnection.connect({ address: config.temporal.address ?? 'localhost:7233' });
const blobs = createBlobStore(config.blobs);
const worker = await createRenderWorker({ config, connection, db, blobs });
const storyboard = await createStoryboardWorker({ config, connection, db, blobs });

const stop = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop.abort());
// Swept now and every hour: what a worker killed mid-render (SIGKILL) left in its work folder,
// and the renders a gateway recorded but stopped before starting.
const client = temporalClient(connection, config);
keepRunning(() => sweepWorkDir(config.render.workDir), {
  everyMs: SWEEP_EVERY_MS, signal: stop.signal,
  onDone: (names) => names.length && log.info({ workDir: config.render.workDir, swept: names }, 'removed render work a killed worker left'),
  onError: (error) => log.warn({ err: error, workDir: config.render.workDir }, 'the render work folder could not be swept'),
});
const workflows = renderFarmWorkflows(client, { taskQueuePrefix: config.temporal.taskQueuePrefix, heartbeatTimeoutMs: config.render.heartbeatTimeoutMs });
keepRunning(() => sweepUnstartedRenders({ db, blobs, workflows }), {
  everyMs: SWEEP_EVERY_MS, signal: stop.signal,
  onDone: (renderIds) => renderIds.length && log.info({ renderIds }, 'abandoned renders that were never started'),
  onError: (error) => log.warn({ err: error }, 'unstarted renders could not be swept; tried again later'),
});
// The container's health check reads this file's age (HEALTH_FILE, docker-compose.yml).
const { healthFile } = config.worker;
if (healthFile) {
  keepRunning(() => touchWhenHealthy(healthFile, { temporal: () => connection.workflowService.getSystemInfo({}), database: () => db.$queryRaw`SELECT 1` }), {
    everyMs: HEARTBEAT_EVERY_MS, signal: stop.signal, onDone: () => {},
    onError: (error) => log.warn({ err: error }, 'not healthy: the heartbeat was not written'),
  });
}
log.info({ taskQueue: worker.options.taskQueue, concurrency: config.render.concurrency, blobStore: config.blobs.kind, tools, selfCheckMs, storyboardQueue: storyboard.options.taskQueue, storyboardConcurrency: config.render.storyboardConcurrency }, 'render worker started');
await runRenderWorker([worker, storyboard], stop.signal);
await connection.close();
await db.$disconnect();
log.info('render worker stopped');
