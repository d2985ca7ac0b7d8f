import { existsSync, readFileSync } from 'node:fs';
import { parse as parseDotenv } from 'dotenv';

/** Where the dev stack keeps its data unless DATA_DIR says otherwise. */
export const DEFAULT_DATA_DIR = '.data';

/** The dev stack's data folder (DATA_DIR, `.data` by default), before the rest is parsed. */
export function devDataDir(env: Record<string, string | undefined> = process.env): string {
  return env.DATA_DIR || DEFAULT_DATA_DIR;
}

/** The environment, with the dev stack's secrets (`secrets.env` in its data folder) filled in where unset. */
export function devStackEnv(dataDir: string, env: Record<string, string | undefined> = process.env): Record<string, string | undefined> {
  return withFiles([`${dataDir}/secrets.env`], env);
}

/**
 * For tools working against the running dev stack (`pnpm admin`): with DATABASE_URL unset, the
 * environment with the dev stack's files filled in, its secrets and `dev.env` (`DATABASE_URL=…`,
 * `TEMPORAL_ADDRESS=…`, written while it runs). Variables already set win; missing files change nothing.
 */
export function loadDevEnv(dataDir: string, env: Record<string, string | undefined> = process.env): Record<string, string | undefined> {
  if (env.DATABASE_URL) return env;
  return withFiles([`${dataDir}/secrets.env`, `${dataDir}/dev.env`], env);
}

function withFiles(paths: string[], env: Record<string, string | undefined>): Record<string, string | undefined> {
  const set = Object.entries(env).filter(([, value]) => value !== undefined && value !== '');
  const files = paths.filter((path) => existsSync(path)).map((path) => parseDotenv(readFileSync(path)));
  return Object.assign({}, ...files, Object.fromEntries(set));
}
