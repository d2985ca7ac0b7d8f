import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from './client.ts';
import { isDatabaseFailure } from './failures.ts';
import { Prisma } from './generated/client.ts';

/** A client inside a transaction. */
export type Tx = Prisma.TransactionClient;
/** A client, or one inside a transaction: for reads and writes that may be either. */
export type DbOrTx = Db | Tx;

/**
 * Holds a lock named `name` until the transaction ends: one holder at a time per name across
 * every process (`credits:<accountId>`, `pitch-cap:<workspaceId>`, …).
 */
export async function lockFor(tx: Tx, name: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${name}))`;
}

/** A unique constraint refused the write (Prisma's P2002): the row exists already. */
export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';
}

/**
 * PostgreSQL refused the data itself (SQLSTATE class 22, data exception: text it cannot store, a
 * number out of range; class 23, integrity constraint): the same call will be refused again.
 */
export function isDataError(error: unknown): boolean {
  const sqlState = sqlStateOf(error);
  return sqlState !== null && /^(22|23)/.test(sqlState);
}

function sqlStateOf(error: unknown): string | null {
  if (error instanceof Prisma.PrismaClientKnownRequestError) {
    const cause = (error.meta as { driverAdapterError?: { cause?: { originalCode?: string } } } | undefined)?.driverAdapterError?.cause;
    if (cause?.originalCode) return cause.originalCode;
    // Prisma's own codes for a constraint the data broke.
    return ['P2002', 'P2003', 'P2004', 'P2011'].includes(error.code) ? '23000' : null;
  }
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : null;
}

/**
 * Runs `call`, and again after each pause while the database cannot serve it (see
 * `isDatabaseFailure`): a database that blinks is waited out for a moment, any other failure
 * passes at once, and the last try's failure is the caller's.
 */
export async function retryingDatabaseFailures<T>(call: () => Promise<T>, pausesMs: readonly number[]): Promise<T> {
  for (const pauseMs of pausesMs) {
    try {
      return await call();
    } catch (error) {
      if (!isDatabaseFailure(error)) throw error;
      await sleep(pauseMs);
    }
  }
  return call();
}
