import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import type { Context, Env } from 'hono';
import { revokeApiKey } from '@vp/accounts';
import { ErrorBody } from '@vp/contracts';
import type { Db } from '@vp/db';
import { alreadyRevoked } from '../auth/api-key.ts';
import type { Principal } from '../auth/principal.ts';

export type KeyRouteDeps<E extends Env> = {
  db: Db;
  /** The authenticated caller of a request (set by the auth middleware). */
  caller: (c: Context<E>) => Principal;
};

const error = (description: string) => ({ description, content: { 'application/json': { schema: ErrorBody } } });

const revokeCurrent = createRoute({
  method: 'delete', path: '/current', tags: ['API keys'], summary: 'Revoke the calling key',
  description: 'Any live key, whatever its scopes: a tool signing out. The key stops working at once; its history is kept. '
    + 'A browser signed in to the app (its session cookie, no key) gets 400 `not_api_key`.',
  responses: {
    204: { description: 'Revoked' },
    400: error('A browser session, not an API key (`not_api_key`).'),
    401: error('Missing, malformed or unknown API key.'),
    404: error('The key is already revoked (`not_found`).'),
    429: error('Rate limited (`rate_limited`): 30 a minute per key; see Retry-After.'),
  },
});

/** `/v1/keys`: the routes of the spec's API keys table that act on a key. */
export function keyRoutes<E extends Env>(deps: KeyRouteDeps<E>) {
  const app = new OpenAPIHono<E>();
  app.openapi(revokeCurrent, async (c) => {
    const { keyId, accountId } = deps.caller(c);
    // Revoked by another request since this one was let in.
    if (!(await revokeApiKey(deps.db, keyId, accountId))) throw alreadyRevoked();
    return c.body(null, 204);
  });
  return app;
}
