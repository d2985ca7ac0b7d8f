/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import { Hono, type Context } from 'hono';
import { workspacesOf } from '@vp/accounts';
import {
  approveAuthorization, checkAuthorization, denyAuthorization, isAuthorizationRefusal, type AuthorizationParams, type AuthorizationRequest,
} from '@vp/oauth';
import type { AppDeps, AppEnv, AppSite } from '../env.ts';
import { csrfTokenRequired } from '../http/forgery.ts';
import { rememberReturn } from '../http/return-to.ts';
import { requireSignIn } from '../http/session.ts';
import { AuthorizationProblemPage, ConsentPage, ReturningPage } from '../views/oauth.tsx';
import { chromeOf } from './chrome.ts';

/** The parameters of an authorization request, carried from the query into the consent form. */
export const AUTHORIZATION_PARAMS = ['response_type', 'client_id', 'redirect_uri', 'state', 'code_challenge', 'code_challenge_method', 'resource', 'scope'] as const;

/**
 * /oauth/authorize: the consent page of the service's OAuth authorization server (the gateway
 * publishes it as `authorization_endpoint`). Sign-in first; Allow or Deny posted with the session's CSRF token.
 */
export function oauthRoutes(deps: AppDeps, site: AppSite) {
  const app = new Hono<AppEnv>();
  const lookup = { db: deps.db, allowPrivateUrls: deps.config.allowPrivateUrls, baseUrl: deps.config.baseUrl };
  const nonce = (c: Context<AppEnv>) => c.var.secureHeadersNonce ?? '';

  /** The request checked; a refusal goes back to the client when its redirect URI is known good, else is shown here. */
  async function checked(c: Context<AppEnv>, params: AuthorizationParams): Promise<AuthorizationRequest | Response> {
    try {
      return await checkAuthorization(lookup, params);
    } catch (error) {
      if (!isAuthorizationRefusal(error)) throw error;
      if (error.redirectTo) return c.redirect(error.redirectTo, 303);
      return c.html(<AuthorizationProblemPage nonce={nonce(c)} problem={error.error.description} />, 400);
    }
  }

  app.get('/authorize', async (c, next) => {
    // A bad request is said at once, signed in or not; a good one waits for the sign-in.
    const request = await checked(c, pick(c.req.query()));
    if (request instanceof Response) return request;
    if (c.var.session) return next();
    rememberReturn(c, site);
    return c.redirect('/sign-in', 303);
  }, requireSignIn(deps, site), async (c) => {
    const params = pick(c.req.query());
    const request = await checked(c, params);
    if (request instanceof Response) return request;
    return c.html(<ConsentPage chrome={await chromeOf(deps, c)} request={request} params={params} workspaces={await workspacesOf(deps.db, c.var.caller)} />);
  });

  app.post('/authorize', requireSignIn(deps, site), csrfTokenRequired, async (c) => {
    const form = await c.req.parseBody();
    const params = pick(Object.fromEntries(Object.entries(form).filter((entry): entry is [string, string] => typeof entry[1] === 'string')));
    const request = await checked(c, params);
    if (request instanceof Response) return request;
    const allowed = form.decision === 'allow';
    const target = allowed
      ? await approveAuthorization(deps.db, c.var.caller, request, deps.config.baseUrl, deps.now?.())
      : denyAuthorization(request, deps.config.baseUrl);
    // A page that sends the browser on, not a redirect: the form-action CSP would stop a form's
    // redirect to the client's origin, and the person sees where they are going.
    return c.html(<ReturningPage nonce={nonce(c)} clientName={request.client.name} target={target} allowed={allowed} />);
  });

  return app;
}

function pick(source: Record<string, string>): AuthorizationParams {
  const params: AuthorizationParams = {};
  for (const name of AUTHORIZATION_PARAMS) if (typeof source[name] === 'string') params[name] = source[name];
  return params;
}
