import pg from 'pg';
import { Prisma } from './generated/client.ts';

/** What pg says, with no code, when a connection could not be had in time or was lost. */
const CONNECTION_LOST = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout)/;
/** The network's own failures on the way to the database. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * Whether a call failed in the database or on the way to it (unreachable, no connection in time,
 * the connection dropped, a server shutting down, a statement refused): the same call may pass
 * later. Not a call Prisma refused before sending it (a mistake of ours), nor a missing row asked
 * for with `…OrThrow`, which is an answer. Prisma passes pg's connection errors on as they are.
 */
export function isDatabaseFailure(error: unknown): boolean {
  if (error instanceof Prisma.PrismaClientKnownRequestError) return error.code !== 'P2025';
  if (error instanceof Prisma.PrismaClientUnknownRequestError || error instanceof Prisma.PrismaClientInitializationError) return true;
  if (error instanceof pg.DatabaseError) return true;
  return error instanceof Error && (NETWORK_CODES.has((error as NodeJS.ErrnoException).code ?? '') || CONNECTION_LOST.test(error.message));
}
