import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Db } from '@vp/db';
import { exchangeCode, OAuthError, refreshTokens, registerClient, revokeToken } from '@vp/oauth';
import type { GatewayEnv } from '../deps.ts';

/**
 * /oauth/register (RFC 7591), /oauth/token, /oauth/revoke (RFC 7009). Their errors are OAuth's
 * `{ error, error_description }`, not the API's shape: OAuth clients read `error` as the code.
 */
export function oauthRoutes(deps: { db: Db; now?: () => Date }) {
  const app = new Hono<GatewayEnv>();
  const context = () => ({ db: deps.db, now: deps.now?.() });

  app.onError((error, c) => {
    if (!(error instanceof OAuthError)) throw error;
    const headers: Record<string, string> = { 'Cache-Control': 'no-store' };
    if (error.status === 401) headers['WWW-Authenticate'] = 'Bearer';
    return c.json({ error: error.error, error_description: error.description }, error.status as ContentfulStatusCode, headers);
  });

  app.post('/register', async (c) => {
    const body = await c.req.json().catch(() => { throw new OAuthError('invalid_client_metadata', 'The body is not valid JSON.'); });
    return c.json(await registerClient(deps.db, body), 201, { 'Cache-Control': 'no-store' });
  });

  app.post('/token', async (c) => {
    const params = await formOf(c);
    const grantType = params.grant_type;
    const tokens = grantType === 'authorization_code' ? await exchangeCode(context(), params)
      : grantType === 'refresh_token' ? await refreshTokens(context(), params)
        : (() => { throw new OAuthError(grantType ? 'unsupported_grant_type' : 'invalid_request', grantType ? `grant_type ${grantType} is not supported.` : 'grant_type is missing.'); })();
    return c.json(tokens, 200, { 'Cache-Control': 'no-store', Pragma: 'no-cache' });
  });

  app.post('/revoke', async (c) => {
    await revokeToken(context(), await formOf(c));
    return c.body(null, 200);
  });

  return app;
}

/** The form body of a token or revocation request: each parameter once (RFC 6749 3.2). */
async function formOf(c: Context): Promise<Record<string, string | undefined>> {
  if (!/^application\/x-www-form-urlencoded\b/i.test(c.req.header('content-type') ?? '')) {
    throw new OAuthError('invalid_request', 'Send the parameters as application/x-www-form-urlencoded.');
  }
  const params = new URLSearchParams(await c.req.text());
  const form: Record<string, string> = {};
  for (const [name, value] of params) {
    if (name in form) throw new OAuthError('invalid_request', `${name} is given more than once.`);
    form[name] = value;
  }
  return form;
}
