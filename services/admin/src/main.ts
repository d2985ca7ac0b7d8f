import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { devDataDir, loadConfig, loadDevEnv, type Config } from '@vp/config';
import { createDb, type Db } from '@vp/db';
import { runCli } from './cli.ts';

// Against the running dev stack when DATABASE_URL is unset: `pnpm dev` writes .data/dev.env while
// it runs, and keeps its secrets in .data/secrets.env.
const root = fileURLToPath(new URL('../../../', import.meta.url));
let db: Db | null = null;
let loaded: Config | null = null;

function config(): Config {
  return (loaded ??= loadConfig(loadDevEnv(resolve(root, devDataDir()))));
}

function database(): Db {
  if (db) return db;
  const { databaseUrl } = config();
  if (!databaseUrl) {
    throw new Error('DATABASE_URL is not set and no dev stack is running (start one with `pnpm dev`).');
  }
  return (db = createDb(databaseUrl, { max: 2 }));
}

const code = await runCli(process.argv.slice(2), {
  db: database,
  config,
  stdout: (line) => console.log(line),
  stderr: (line) => console.error(line),
});
await (db as Db | null)?.$disconnect();
process.exit(code);
