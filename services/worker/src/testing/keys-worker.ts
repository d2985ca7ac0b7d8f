/**
 * A worker process on the key requests task queue only, to be killed the hard way (SIGKILL)
 * while requests wait on it: the "worker killed" of the device flow's tests.
 * Usage: node --import tsx keys-worker.ts <workflow bundle path>
 */
import { NativeConnection, Worker } from '@temporalio/worker';
import { keyRequestBox } from '@vp/accounts';
import { createKeyRequestActivities } from '@vp/activities';
import { loadConfig } from '@vp/config';
import { taskQueue } from '@vp/contracts';
import { createDb } from '@vp/db';
import { temporalDataConverter } from '@vp/temporal-client';

const [bundlePath] = process.argv.slice(2);
const config = loadConfig();
const db = createDb(config.databaseUrl!, { max: 2 });
const worker = await Worker.create({
  connection: await NativeConnection.connect({ address: config.temporal.address! }),
  dataConverter: temporalDataConverter(config.temporal),
  taskQueue: taskQueue('keys', config.temporal.taskQueuePrefix),
  workflowBundle: { codePath: bundlePath! },
  activities: createKeyRequestActivities({ db, box: keyRequestBox(config.secrets) }),
  // Hand the workflows back to the shared queue quickly once this process is gone.
  stickyQueueScheduleToStartTimeout: '1 second',
});
process.stdout.write('ready\n');
await worker.run();
