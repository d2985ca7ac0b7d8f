import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from './generated/client.ts';

export type Db = PrismaClient;

const pools = new WeakMap<Db, pg.Pool>();

/** How long a call may wait for a connection, a new one's opening or the pool's next free one. */
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * One client per process; the pg pool behind the driver adapter is sized by the caller. A call
 * that cannot get a connection in time fails (pg waits for good by default: a database that
 * stopped answering would hold every caller), and idle connections are probed, so that one the
 * network dropped is found out rather than waited on.
 */
export function createDb(databaseUrl: string, options: { max?: number; connectTimeoutMs?: number } = {}): Db {
  const pool = new pg.Pool({
    connectionString: databaseUrl, max: options.max ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS, keepAlive: true, keepAliveInitialDelayMillis: 10_000,
  });
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

/** Whether PostgreSQL answers: readiness probes call this rather than writing SQL of their own. */
export async function pingDatabase(db: Db): Promise<void> {
  await db.$queryRaw`SELECT 1`;
}
