import { createHash, randomBytes } from 'node:crypto';
import { hashSecret } from '@vp/accounts';
import type { Db, Tx } from '@vp/db';
import { OAuthError } from './errors.ts';
import { ACCESS_TOKEN_MS, ACCESS_TOKEN_PREFIX, REFRESH_TOKEN_MS, REFRESH_TOKEN_PREFIX } from './lifetimes.ts';

export type TokenResponse = { access_token: string; token_type: 'Bearer'; expires_in: number; refresh_token: string };
type TokenContext = { db: Db; now?: Date };

const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
const invalidGrant = (why: string) => new OAuthError('invalid_grant', why);

/** grant_type=authorization_code: a code once, with the verifier of its challenge, for the client it was issued to. */
export async function exchangeCode(context: TokenContext, params: Record<string, string | undefined>): Promise<TokenResponse> {
  const { db } = context;
  const now = context.now ?? new Date();
  if (!params.code) throw new OAuthError('invalid_request', 'code is missing.');
  if (!params.code_verifier) throw new OAuthError('invalid_request', 'code_verifier is missing: PKCE is required.');
  const code = await db.oAuthCode.findUnique({ where: { codeHash: hashSecret(params.code) }, include: { grant: { include: { client: true } } } });
  if (!code) throw invalidGrant('The code is unknown.');
  if (code.grant.client.clientId !== params.client_id) throw invalidGrant('The code was issued to another client.');
  return db.$transaction(async (tx) => {
    const claimed = await tx.oAuthCode.updateMany({ where: { id: code.id, usedAt: null, expiresAt: { gt: now } }, data: { usedAt: now } });
    if (claimed.count === 0) {
      if (!code.usedAt) throw invalidGrant('The code has expired.');
      // A code used twice may have been stolen: whatever it gave is withdrawn (RFC 6749 4.1.2).
      await revokeGrantWithin(tx, code.grantId, now);
      return 'reused' as const;
    }
    if (params.redirect_uri !== code.redirectUri) throw invalidGrant('redirect_uri differs from the authorization request\'s.');
    if (!VERIFIER.test(params.code_verifier!) || s256(params.code_verifier!) !== code.codeChallenge) throw invalidGrant('The PKCE code_verifier does not match the code_challenge.');
    if (params.resource !== undefined && params.resource.replace(/\/$/, '') !== code.grant.resource) {
      throw new OAuthError('invalid_target', `This code is for ${code.grant.resource}.`);
    }
    if (code.grant.revokedAt) throw invalidGrant('This connection was revoked.');
    return issueTokens(tx, code.grantId, now);
  }).then((result) => {
    // Thrown after the commit: the revocation stays.
    if (result === 'reused') throw invalidGrant('The code was already used; the tokens it gave are revoked.');
    return result;
  });
}

/**
 * grant_type=refresh_token: each refresh token works once and is replaced. A second use means two
 * holders: the whole family (the grant and every token) is revoked (OAuth 2.1 4.3.1).
 */
export async function refreshTokens(context: TokenContext, params: Record<string, string | undefined>): Promise<TokenResponse> {
  const { db } = context;
  const now = context.now ?? new Date();
  if (!params.refresh_token) throw new OAuthError('invalid_request', 'refresh_token is missing.');
  const token = await db.oAuthToken.findUnique({ where: { tokenHash: hashSecret(params.refresh_token) }, include: { grant: { include: { client: true } } } });
  if (!token || token.kind !== 'refresh') throw invalidGrant('The refresh token is unknown.');
  if (token.grant.client.clientId !== params.client_id) throw invalidGrant('The refresh token was issued to another client.');
  if (params.resource !== undefined && params.resource.replace(/\/$/, '') !== token.grant.resource) {
    throw new OAuthError('invalid_target', `This refresh token is for ${token.grant.resource}.`);
  }
  return db.$transaction(async (tx) => {
    const claimed = await tx.oAuthToken.updateMany({ where: { id: token.id, usedAt: null, revokedAt: null, expiresAt: { gt: now } }, data: { usedAt: now } });
    if (claimed.count === 0) {
      if (token.usedAt && !token.grant.revokedAt) {
        await revokeGrantWithin(tx, token.grantId, now);
        return 'reused' as const;
      }
      throw invalidGrant(token.revokedAt || token.grant.revokedAt ? 'The refresh token was revoked.' : token.usedAt ? 'The refresh token was already used.' : 'The refresh token has expired.');
    }
    if (token.grant.revokedAt) throw invalidGrant('This connection was revoked.');
    return issueTokens(tx, token.grantId, now);
  }).then((result) => {
    // Thrown after the commit: the family stays revoked.
    if (result === 'reused') throw invalidGrant('The refresh token was already used: every token of this connection is now revoked. Authorize again.');
    return result;
  });
}

/** RFC 7009: a refresh token revokes its family, an access token itself. Unknown tokens are no error. */
export async function revokeToken(context: TokenContext, params: Record<string, string | undefined>): Promise<void> {
  const { db } = context;
  const now = context.now ?? new Date();
  if (!params.token) throw new OAuthError('invalid_request', 'token is missing.');
  const token = await db.oAuthToken.findUnique({ where: { tokenHash: hashSecret(params.token) }, include: { grant: { include: { client: true } } } });
  if (!token || (params.client_id !== undefined && token.grant.client.clientId !== params.client_id)) return;
  if (token.kind === 'refresh') await db.$transaction((tx) => revokeGrantWithin(tx, token.grantId, now));
  else await db.oAuthToken.updateMany({ where: { id: token.id, revokedAt: null }, data: { revokedAt: now } });
}

export async function revokeGrantWithin(tx: Tx, grantId: string, now: Date): Promise<void> {
  await tx.oAuthGrant.updateMany({ where: { id: grantId, revokedAt: null }, data: { revokedAt: now } });
  await tx.oAuthToken.updateMany({ where: { grantId, revokedAt: null }, data: { revokedAt: now } });
}

async function issueTokens(tx: Tx, grantId: string, now: Date): Promise<TokenResponse> {
  const access = ACCESS_TOKEN_PREFIX + randomBytes(32).toString('base64url');
  const refresh = REFRESH_TOKEN_PREFIX + randomBytes(32).toString('base64url');
  await tx.oAuthToken.createMany({
    data: [
      { grantId, kind: 'access', tokenHash: hashSecret(access), expiresAt: new Date(now.getTime() + ACCESS_TOKEN_MS) },
      { grantId, kind: 'refresh', tokenHash: hashSecret(refresh), expiresAt: new Date(now.getTime() + REFRESH_TOKEN_MS) },
    ],
  });
  return { access_token: access, token_type: 'Bearer', expires_in: ACCESS_TOKEN_MS / 1000, refresh_token: refresh };
}

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');
