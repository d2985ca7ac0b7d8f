import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { ApiError, SESSION_COOKIE } from '@vp/contracts';
import type { GatewayDeps, GatewayEnv } from '../env.ts';
import { clientAddress } from '../http/client-address.ts';
import { windowAt, type RateLimiter } from '../rate-limit/fixed-window.ts';
import { isApiPath, surfaceOf } from '../surfaces.ts';
import { alreadyRevoked, authenticate, bearerApiKey, revokedKeyId } from './api-key.ts';

/**
 * The spec's Authentication and Limits, in one place: keys on /v1 with their scopes,
 * `api_key_scope` for keys outside /v1, and the rate limit of each surface.
 */
export function guard(deps: GatewayDeps, limiter: RateLimiter) {
  return createMiddleware<GatewayEnv>(async (c, next) => {
    const surface = surfaceOf(c.req.method, c.req.path);
    if (!isApiPath(c.req.path) && bearerApiKey(c.req.header('authorization'))) {
      throw new ApiError(403, 'API keys work only on /v1 paths.', 'api_key_scope');
    }
    if (!surface) return next();
    const window = windowAt(limiter.now());
    let hits: number | null = null;
    let revoked = false;
    if (surface.access === 'public') {
      if (surface.limit) hits = await limiter.hit(`${surface.name}:ip:${clientAddress(c.req.header('x-forwarded-for'), socketAddress(c), deps.config.http.trustedProxies)}`);
    } else {
      const header = c.req.header('authorization');
      if (!bearerApiKey(header) && carriesAppSession(c)) throw browserSession(surface.name);
      const count = surface.limit ? { bucket: surface.name, windowStart: window.start } : undefined;
      const authenticated = await authenticate(deps.db, header, count).catch(async (error: unknown) => {
        const keyId = surface.revokedKeyNotFound ? await revokedKeyId(deps.db, header) : null;
        if (!keyId) throw error;
        return { principal: null, hits: surface.limit ? await limiter.hit(`${surface.name}:key:${keyId}`) : null };
      });
      if (authenticated.principal) {
        if (surface.access !== 'any' && !authenticated.principal.scopes.includes(surface.access)) {
          throw new ApiError(403, `This API key lacks the \`${surface.access}\` scope.`, 'api_key_missing_scope');
        }
        c.set('principal', authenticated.principal);
      } else revoked = true;
      hits = authenticated.hits;
    }
    if (surface.limit && hits !== null) {
      const { perMinute } = surface.limit;
      const reset = Math.max(1, Math.ceil((window.resetAt.getTime() - limiter.now()) / 1000));
      const headers = { 'RateLimit-Limit': String(perMinute), 'RateLimit-Remaining': String(Math.max(0, perMinute - hits)), 'RateLimit-Reset': String(reset) };
      for (const [name, value] of Object.entries(headers)) c.header(name, value);
      if (hits > perMinute) {
        throw new ApiError(429, `Rate limit of ${perMinute} requests a minute reached; retry in ${reset} s.`, 'rate_limited', { 'Retry-After': String(reset) });
      }
    }
    // A revoked key on a route that answers it 404 goes no further, once counted.
    if (revoked) throw alreadyRevoked();
    await next();
  });
}

/**
 * The app's session cookie: a browser signed in to the app sends it here too (cookies go by host,
 * not port). It is no key: 401, except on DELETE /v1/keys/current, which the spec answers 400
 * `not_api_key` (a browser session cannot revoke "the calling key").
 */
function carriesAppSession(c: Context): boolean {
  return Boolean(getCookie(c, SESSION_COOKIE.secure) ?? getCookie(c, SESSION_COOKIE.plain));
}

function browserSession(surface: string): ApiError {
  return surface === 'keys-current'
    ? new ApiError(400, 'A browser session is not an API key: DELETE /v1/keys/current revokes the API key that calls it. Revoke keys on the app\'s keys page.', 'not_api_key')
    : new ApiError(401, 'A browser session does not work on /v1: send an API key (`Authorization: Bearer svc_live_…`).');
}

/** The socket peer's address; app.request() in tests has no socket. */
export function socketAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}
