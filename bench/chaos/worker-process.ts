/**
 * services/worker as its main.ts runs it (the productions and webhooks workers, the built-in pitch
 * writer, no mail), with the run's prebuilt workflow bundle: the process bench/chaos SIGKILLs.
 * Its configuration comes from the environment alone, as a deployment's does.
 * Usage: node --import tsx worker-process.ts <workflow bundle path>
 */
import { NativeConnection } from '@temporalio/worker';
import { loadConfig, requireDatabaseUrl } from '@vp/config';
import { createDb } from '@vp/db';
import { createBuiltinWriter } from '@vp/pitch';
import { createWorkers, runWorkers } from '@vp/worker';

const [bundlePath] = process.argv.slice(2);
const config = loadConfig();
const db = createDb(requireDatabaseUrl(config), { max: 8 });
const connection = await NativeConnection.connect({ address: config.temporal.address! });
const workers = await createWorkers({ config, connection, db, writer: createBuiltinWriter(), mailer: null, workflowBundle: { codePath: bundlePath! } });
const stop = new AbortController();
process.once('SIGTERM', () => stop.abort());
process.stdout.write('ready\n');
await runWorkers(workers, stop.signal);
await connection.close();
await db.$disconnect();
process.exit(0);
