import { DomainError, type Caller } from '@vp/contracts';
import type { Db } from '@vp/db';
import { revokeGrantWithin } from './tokens.ts';

export type Connection = { id: string; clientName: string; clientId: string; connectedAt: Date; lastUsedAt: Date | null };

/** The clients connected to the caller's account: grants with a token still alive. */
export async function listConnections(db: Db, caller: Caller, now = new Date()): Promise<Connection[]> {
  const grants = await db.oAuthGrant.findMany({
    where: { accountId: caller.accountId, revokedAt: null, tokens: { some: { revokedAt: null, expiresAt: { gt: now }, usedAt: null } } },
    include: { client: { select: { name: true, clientId: true } } },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
  return grants.map((g) => ({ id: g.id, clientName: g.client.name, clientId: g.client.clientId, connectedAt: g.createdAt, lastUsedAt: g.lastUsedAt }));
}

/** Disconnect: the grant and every token of it revoked at once. Someone else's: not found. */
export async function disconnect(db: Db, caller: Caller, grantId: string, now = new Date()): Promise<void> {
  const grant = await db.oAuthGrant.findFirst({ where: { id: grantId, accountId: caller.accountId } });
  if (!grant) throw new DomainError('not_found', 'No such connected client.');
  await db.$transaction((tx) => revokeGrantWithin(tx, grant.id, now));
}
