import { describe, expect } from 'vitest';
import { test, createEmptyDatabase } from '@vp/testing';
import { migrate, readMigrations } from './migrate.ts';
import { schemaShape, shapeDifferences } from './prisma-shape.ts';
import { readDatabaseShape } from './schema-shape.ts';

describe('migrations', () => {
  test('build exactly the database the Prisma schema describes: every table, column, type, default, key, index and enum', async ({ database }) => {
    const differences = shapeDifferences(await schemaShape(), await readDatabaseShape(database.url));
    expect(differences).toEqual([]);
  });

  test('the drift check notices a column, an index or an enum value the migrations do not build', async () => {
    const empty = await createEmptyDatabase();
    try {
      const migrations = await readMigrations();
      const [first] = migrations;
      // Build the database from the first migration only, then drift it by hand.
      const dir = await writeMigrations([first!]);
      await migrate(empty.url, dir);
      const { Client } = (await import('pg')).default;
      const client = new Client({ connectionString: empty.url });
      await client.connect();
      await client.query(`ALTER TABLE accounts ADD COLUMN nickname TEXT; DROP INDEX api_keys_account_id_idx; ALTER TYPE role ADD VALUE 'guest'`);
      await client.end();
      const differences = shapeDifferences(await schemaShape(), await readDatabaseShape(empty.url)).join('\n');
      expect(differences).toContain('column accounts.nickname');
      expect(differences).toContain('index api_keys_account_id_idx on api_keys');
      expect(differences).toContain('enum role');
      expect(differences).toContain('table productions');
    } finally {
      await empty.drop();
    }
  });

  test('are recorded in _prisma_migrations as prisma migrate deploy records them, and run once', async () => {
    const empty = await createEmptyDatabase();
    try {
      const names = (await readMigrations()).map((m) => m.name);
      expect(await migrate(empty.url)).toEqual(names);
      expect(await migrate(empty.url)).toEqual([]);
      const { Client } = (await import('pg')).default;
      const client = new Client({ connectionString: empty.url });
      await client.connect();
      const { rows } = await client.query('SELECT migration_name, checksum, finished_at, applied_steps_count FROM _prisma_migrations ORDER BY migration_name');
      await client.end();
      expect(rows.map((r) => r.migration_name)).toEqual(names);
      for (const row of rows) {
        expect(row.checksum).toMatch(/^[0-9a-f]{64}$/);
        expect(row.finished_at).toBeInstanceOf(Date);
        expect(row.applied_steps_count).toBe(1);
      }
    } finally {
      await empty.drop();
    }
  });
});

async function writeMigrations(migrations: { name: string; sql: string }[]): Promise<string> {
  const { mkdtemp, mkdir, writeFile } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const dir = await mkdtemp(`${tmpdir()}/vp-migrations-`);
  for (const m of migrations) {
    await mkdir(`${dir}/${m.name}`);
    await writeFile(`${dir}/${m.name}/migration.sql`, m.sql);
  }
  return dir;
}
