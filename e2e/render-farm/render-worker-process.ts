/**
 * A render worker in a process of its own, as `main.ts` runs it but with the test run's
 * prebuilt workflow bundle: the machine the tests kill (SIGKILL) or stop (SIGTERM) mid-render.
 * Usage: node --import tsx render-worker-process.ts <workflow bundle path>
 */
import { NativeConnection } from '@temporalio/worker';
import { createBlobStore } from '@vp/blobs';
import { loadConfig } from '@vp/config';
import { createDb } from '@vp/db';
import { createRenderWorker, runRenderWorker } from '@vp/render-worker';

const [bundlePath] = process.argv.slice(2);
const config = loadConfig();
const worker = await createRenderWorker({
  config,
  connection: await NativeConnection.connect({ address: config.temporal.address! }),
  db: createDb(config.databaseUrl!, { max: 4 }),
  blobs: createBlobStore(config.blobs),
  workflowBundle: { codePath: bundlePath! },
});
// Stopped as main.ts is: SIGTERM drains it (SIGKILL is a crash).
const stop = new AbortController();
process.once('SIGTERM', () => stop.abort());
process.stdout.write('ready\n');
await runRenderWorker(worker, stop.signal);
process.stdout.write('stopped\n');
process.exit(0);
