/**
 * A render worker in a process of its own, as `main.ts` runs it but with the test run's
 * prebuilt workflow bundle: the machine the crash tests kill mid-render.
 * Usage: node --import tsx render-worker-process.ts <workflow bundle path>
 */
import { NativeConnection } from '@temporalio/worker';
import { createBlobStore } from '@vp/blobs';
import { loadConfig } from '@vp/config';
import { createDb } from '@vp/db';
import { createRenderWorker } from '../worker.ts';

const [bundlePath] = process.argv.slice(2);
const config = loadConfig();
const worker = await createRenderWorker({
  config,
  connection: await NativeConnection.connect({ address: config.temporal.address! }),
  db: createDb(config.databaseUrl!, { max: 4 }),
  blobs: createBlobStore(config.blobs),
  workflowBundle: { codePath: bundlePath! },
});
process.stdout.write('ready\n');
await worker.run();
