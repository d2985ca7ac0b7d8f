import { hashSecret } from '@vp/accounts';
import type { Db } from '@vp/db';
import { ACCESS_TOKEN_PREFIX } from './lifetimes.ts';

export type AccessGrant = { tokenId: string; grantId: string; accountId: string; clientName: string };

const LAST_USED_RESOLUTION_MS = 60_000;

/** Whether a bearer credential looks like one of our access tokens (and so is no API key). */
export const isAccessToken = (token: string) => token.startsWith(ACCESS_TOKEN_PREFIX);

/**
 * The live grant behind an access token for `resource`, or null: unknown, expired, revoked, or
 * issued for another audience (RFC 8707). Touches the connection's last use at most once a minute.
 */
export async function authenticateAccessToken(db: Db, token: string, resource: string, now = new Date()): Promise<AccessGrant | null> {
  if (!isAccessToken(token)) return null;
  const row = await db.oAuthToken.findUnique({ where: { tokenHash: hashSecret(token) }, include: { grant: { include: { client: { select: { name: true } } } } } });
  if (!row || row.kind !== 'access' || row.revokedAt || row.expiresAt <= now) return null;
  const { grant } = row;
  if (grant.revokedAt || grant.resource !== resource) return null;
  if (!grant.lastUsedAt || now.getTime() - grant.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await db.oAuthGrant.update({ where: { id: grant.id }, data: { lastUsedAt: now } });
  }
  return { tokenId: row.id, grantId: grant.id, accountId: grant.accountId, clientName: grant.client.name };
}
