import { authenticateApiKey, revokedApiKeyId, type CountHit } from '@vp/accounts';
import { API_KEY_PREFIX, ApiError } from '@vp/contracts';
import type { Db } from '@vp/db';
import { isAccessToken } from '@vp/oauth';
import type { Principal } from './principal.ts';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The API key a request carries, if it carries one in the `Authorization: Bearer svc_live_…` form. */
export function bearerApiKey(header: string | undefined): string | null {
  const token = header?.match(BEARER)?.[1];
  return token?.startsWith(API_KEY_PREFIX) ? token : null;
}

/**
 * The principal behind the request's key; 401 for a missing, malformed, unknown or revoked key.
 * With `count`, the request is also counted in the key's rate-limit window (same round trip).
 */
export async function authenticate(db: Db, header: string | undefined, count?: CountHit): Promise<{ principal: Principal; hits: number | null }> {
  if (!header) throw unauthorized('Missing API key: send `Authorization: Bearer svc_live_…`.');
  const token = bearerApiKey(header);
  if (!token && isAccessToken(header.match(BEARER)?.[1] ?? '')) throw unauthorized('An MCP access token does not work on /v1: send an API key (`Authorization: Bearer svc_live_…`).');
  if (!token) throw unauthorized('Malformed Authorization header: expected `Bearer svc_live_…`.');
  const key = await authenticateApiKey(db, token, count);
  if (!key) throw unauthorized('Invalid or revoked API key.');
  return {
    principal: { keyId: key.keyId, accountId: key.accountId, scopes: key.scopes, actor: `key:${key.keyId}`, via: 'api' },
    hits: key.hits,
  };
}

/** The id of the revoked key a request carries, if that is what it carries. */
export async function revokedKeyId(db: Db, header: string | undefined): Promise<string | null> {
  const token = bearerApiKey(header);
  return token ? revokedApiKeyId(db, token) : null;
}

/** What a route that acts on the calling key answers a revoked one (spec: DELETE /v1/keys/current). */
export const alreadyRevoked = () => new ApiError(404, 'This API key is already revoked.', 'not_found');

/** The spec's 401 carries no code. */
const unauthorized = (message: string) => new ApiError(401, message);
