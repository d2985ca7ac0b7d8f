import pg from 'pg';
import { DomainError } from '@vp/contracts';
import { Prisma } from './generated/client.ts';

/** Prisma's driver adapter's kinds for a database that cannot serve now. */
const TRANSIENT_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections', 'TransactionWriteConflict']);
/**
 * SQLSTATE classes of the same: connection exception, transaction rollback (serialization,
 * deadlock), insufficient resources, operator intervention (shutdown, cannot connect now), system error.
 */
const TRANSIENT_SQLSTATE = /^(08|40|53|57|58)/;
/** What pg says, with no code, when a connection could not be had in time or was lost. */
const CONNECTION_LOST = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout)/;
/** The network's own failures on the way to the database. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

type AdapterCause = { kind?: string; originalCode?: string };
/** Prisma's "Unable to start a transaction in the given time". */
const NO_TRANSACTION_IN_TIME = 'P2028';

/**
 * Whether a call failed because the database could not serve it now (unreachable, no connection
 * in time, the connection dropped, a server shutting down or out of resources, a serialization
 * conflict): the same call may pass later. Not an answer that will come again (a constraint, bad
 * data, a missing row asked for with `…OrThrow`), nor a call Prisma refused before sending it.
 * Prisma passes pg's connection errors on as they are; those count too.
 */
export function isDatabaseFailure(error: unknown): boolean {
  if (error instanceof Prisma.PrismaClientKnownRequestError) {
    const cause = (error.meta as { driverAdapterError?: { cause?: AdapterCause } } | undefined)?.driverAdapterError?.cause;
    if (cause) return TRANSIENT_KINDS.has(cause.kind ?? '') || TRANSIENT_SQLSTATE.test(cause.originalCode ?? '');
    // Without the adapter's cause: a network error the adapter passed on under its own code, or no
    // transaction in time (the pool busy, or its new connection not opening).
    return NETWORK_CODES.has(error.code) || error.code === NO_TRANSACTION_IN_TIME;
  }
  if (error instanceof Prisma.PrismaClientInitializationError) return true;
  if (error instanceof pg.DatabaseError) return TRANSIENT_SQLSTATE.test(error.code ?? '');
  return error instanceof Error && (NETWORK_CODES.has((error as NodeJS.ErrnoException).code ?? '') || CONNECTION_LOST.test(error.message));
}

/**
 * A call the database could not serve now, as the domain refuses it: `unavailable` (503 and
 * Retry-After at every front door), the database's own failure kept as its cause for the log.
 * Any other error is given back as it is.
 */
export function unavailableWhenDatabaseFails(error: unknown): unknown {
  if (!isDatabaseFailure(error)) return error;
  return Object.assign(new DomainError('unavailable', 'The service is busy; try again in a moment.'), { cause: error });
}
