/**
 * services/render-worker as its main.ts runs it, with the run's prebuilt workflow bundle and
 * without the start-up self-check render (a restart after each kill would pay for it): the
 * other process bench/chaos SIGKILLs. Configuration from the environment alone.
 * Usage: node --import tsx render-worker-process.ts <workflow bundle path>
 */
import { NativeConnection } from '@temporalio/worker';
import { createBlobStore } from '@vp/blobs';
import { loadConfig, requireDatabaseUrl } from '@vp/config';
import { createDb } from '@vp/db';
import { createRenderWorker, runRenderWorker } from '@vp/render-worker';

const [bundlePath] = process.argv.slice(2);
const config = loadConfig();
const db = createDb(requireDatabaseUrl(config), { max: 4 });
const connection = await NativeConnection.connect({ address: config.temporal.address! });
const worker = await createRenderWorker({ config, connection, db, blobs: createBlobStore(config.blobs), workflowBundle: { codePath: bundlePath! } });
const stop = new AbortController();
process.once('SIGTERM', () => stop.abort());
process.stdout.write('ready\n');
await runRenderWorker(worker, stop.signal);
await connection.close();
await db.$disconnect();
process.exit(0);
