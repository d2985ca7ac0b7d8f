/**
 * A worker process that dies the hard way right after one activity has done its work and
 * before Temporal hears about it: the "worker killed mid-step" of the crash-recovery tests.
 * Usage: node --import tsx crashing-worker.ts <activity name> <workflow bundle path>
 */
import { NativeConnection, Worker } from '@temporalio/worker';
import { createProductionActivities } from '@vp/activities';
import { loadConfig } from '@vp/config';
import { taskQueue } from '@vp/contracts';
import { createDb } from '@vp/db';
import { createBuiltinWriter } from '@vp/pitch';
import { temporalDataConverter } from '@vp/temporal-client';

const [crashAfter, bundlePath] = process.argv.slice(2);
const config = loadConfig();
const db = createDb(config.databaseUrl!, { max: 2 });
const activities = createProductionActivities({ db, writer: createBuiltinWriter(), appUrl: config.appUrl, linkSecret: config.secrets.links }) as unknown as Record<string, (input: unknown) => Promise<unknown>>;
const real = activities[crashAfter!]!;
activities[crashAfter!] = async (input) => {
  await real(input);
  process.stdout.write(`crashing after ${crashAfter}\n`);
  process.kill(process.pid, 'SIGKILL');
  return new Promise(() => {});
};

const worker = await Worker.create({
  connection: await NativeConnection.connect({ address: config.temporal.address! }),
  dataConverter: temporalDataConverter(config.temporal),
  taskQueue: taskQueue('productions', config.temporal.taskQueuePrefix),
  workflowBundle: { codePath: bundlePath! },
  activities,
  // Hand the workflow back to the shared queue quickly once this process is gone.
  stickyQueueScheduleToStartTimeout: '1 second',
});
process.stdout.write('ready\n');
await worker.run();
