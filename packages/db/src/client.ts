import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from './generated/client.ts';

export type Db = PrismaClient;

const pools = new WeakMap<Db, pg.Pool>();

/** One client per process; the pg pool behind the driver adapter is sized by the caller. */
export function createDb(databaseUrl: string, options: { max?: number } = {}): Db {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: options.max ?? 10 });
  const db = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  pools.set(db, pool);
  return db;
}

/**
 * The pg pool under a client (ended with it). For the few queries on every request's path,
 * where the ORM's per-query cost would dominate: the key check and the production read.
 */
export function sqlPool(db: Db): pg.Pool {
  const pool = pools.get(db);
  if (!pool) throw new Error('This client was not made by createDb');
  return pool;
}
