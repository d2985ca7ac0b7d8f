import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import './provided.ts';
import { createDb, type Db } from '@vp/db';
import { databaseUrl } from '@vp/devstack';

export type TestDatabase = { url: string; db: Db; drop: () => Promise<void> };

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: inject('postgresServerUrl') });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** A fresh, fully migrated database cloned from the run's template. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `vp_test_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${inject('templateDatabase')}`));
  const url = databaseUrl(inject('postgresServerUrl'), name);
  const db = createDb(url, { max: 5 });
  return {
    url,
    db,
    drop: async () => {
      await db.$disconnect();
      await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/** An empty database (no migrations), for tests of the migrations themselves. */
export async function createEmptyDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `vp_empty_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  return {
    url: databaseUrl(inject('postgresServerUrl'), name),
    drop: () => admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => {}),
  };
}
