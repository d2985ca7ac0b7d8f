import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { SEARCH_ATTRIBUTES } from '@vp/contracts/temporal';
import { migrate } from '@vp/db/migrate';
import { databaseUrl, freePort, startEmbeddedPostgres, startTemporalDevServer } from '@vp/devstack';

/**
 * A throw-away PostgreSQL (migrated) and Temporal dev server for one benchmark run,
 * the same embedded servers `pnpm dev` and the tests use; or, with BENCH_TEMPORAL_ADDRESS, a
 * Temporal server of the caller's (namespace `default`), to measure a deployment's own.
 */
export async function startBenchStack() {
  const dir = await mkdtemp(join(tmpdir(), 'vp-bench-'));
  const postgres = await startEmbeddedPostgres({ dataDir: join(dir, 'pg'), port: await freePort() });
  const client = new pg.Client({ connectionString: postgres.url });
  await client.connect();
  await client.query('CREATE DATABASE bench');
  await client.end();
  const dbUrl = databaseUrl(postgres.url, 'bench');
  await migrate(dbUrl);
  const external = process.env.BENCH_TEMPORAL_ADDRESS;
  const temporal = external ? { address: external, stop: async () => {} } : await startTemporalDevServer({ searchAttributes: SEARCH_ATTRIBUTES });
  return {
    /** A scratch folder for the run (DATA_DIR), removed with the stack. */
    dir,
    databaseUrl: dbUrl,
    temporalAddress: temporal.address,
    stop: async () => {
      await temporal.stop();
      await postgres.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
