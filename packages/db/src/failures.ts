import { Prisma } from './generated/client.ts';

/**
 * Whether a call failed in the database or on the way to it (unreachable, the connection dropped,
 * a server shutting down, a statement refused): the same call may pass later. Not a call Prisma
 * refused before sending it (a mistake of ours), nor a missing row asked for with `…OrThrow`,
 * which is an answer.
 */
export function isDatabaseFailure(error: unknown): boolean {
  if (error instanceof Prisma.PrismaClientKnownRequestError) return error.code !== 'P2025';
  return error instanceof Prisma.PrismaClientUnknownRequestError || error instanceof Prisma.PrismaClientInitializationError;
}
