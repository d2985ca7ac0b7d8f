import { NativeConnection } from '@temporalio/worker';
import { createBlobStore } from '@vp/blobs';
import { loadConfig, requireDatabaseUrl } from '@vp/config';
import { createDb } from '@vp/db';
import pino from 'pino';
import { createRenderWorker, runRenderWorker } from './worker.ts';

const config = loadConfig();
const log = pino({ level: config.logLevel, base: { service: 'render-worker' } });
const db = createDb(requireDatabaseUrl(config), { max: 4 });
const connection = await NativeConnection.connect({ address: config.temporal.address ?? 'localhost:7233' });
const worker = await createRenderWorker({ config, connection, db, blobs: createBlobStore(config.blobs) });

const stop = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop.abort());
log.info({ taskQueue: worker.options.taskQueue, concurrency: config.render.concurrency, blobStore: config.blobs.kind }, 'render worker started');
await runRenderWorker(worker, stop.signal);
await connection.close();
await db.$disconnect();
log.info('render worker stopped');
