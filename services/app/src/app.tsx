import { Hono } from 'hono';
import { NONCE, secureHeaders } from 'hono/secure-headers';
import { relyingPartyFor } from '@vp/accounts';
import { domainDeps } from '@vp/domain';
import type { AppDeps, AppEnv, AppSite } from './env.ts';
import { errorHandler, notFound } from './http/errors.tsx';
import { csrfTokenRequired, sameOriginOnly } from './http/forgery.ts';
import { signInThenReturn } from './http/return-to.ts';
import { loadSession, requireSignIn } from './http/session.ts';
import { accountRoutes } from './routes/account.tsx';
import { assetRoutes } from './routes/assets.ts';
import { GATEWAY_PAGES, gatewayPageRoutes } from './routes/gateway-pages.ts';
import { keyApprovalRoutes } from './routes/key-approval.tsx';
import { keyRoutes } from './routes/keys.tsx';
import { newProductionRoutes } from './routes/new-production.tsx';
import { productionPageRoutes } from './routes/production.tsx';
import { projectRoutes } from './projects/routes.tsx';
import { oauthRoutes } from './routes/oauth.tsx';
import { productionRoutes } from './routes/productions.tsx';
import { signInRoutes, signOutRoute } from './routes/sign-in.tsx';
import { webhookRoutes } from './routes/webhooks.tsx';
import { workspaceRoutes } from './routes/workspace.tsx';

/** Where the app is, from APP_URL: the origin its forms must come from, and its passkeys' relying party. */
export function siteOf(appUrl: string): AppSite {
  const url = new URL(appUrl);
  return { origin: url.origin, secure: url.protocol === 'https:', rp: relyingPartyFor(appUrl) };
}

/**
 * Every page: a CSP whose scripts need the request's nonce, no framing, forms only to this
 * origin, no <base>, no plugins; no sniffing, no Referer. `main.ts` serves it; tests call
 * `app.request()` or serve it on a port.
 */
const headers = (apiOrigin: string) => secureHeaders({
  contentSecurityPolicy: {
    // Videos, posters and storyboard stills are served by the API's host (the app's /share
    // addresses lead there), so media and images may come from it too.
    defaultSrc: ["'none'"], scriptSrc: [NONCE], styleSrc: ["'self'"], imgSrc: ["'self'", apiOrigin], mediaSrc: ["'self'", apiOrigin], connectSrc: ["'self'"],
    formAction: ["'self'"], frameAncestors: ["'none'"], baseUri: ["'none'"], objectSrc: ["'none'"],
  },
  xFrameOptions: 'DENY',
  referrerPolicy: 'no-referrer',
  // Sent on https only: a browser ignores it over http, and localhost is not to be pinned.
  strictTransportSecurity: false,
});

export function createApp(deps: AppDeps) {
  const site = siteOf(deps.config.appUrl);
  const app = new Hono<AppEnv>();
  app.onError(errorHandler(deps));
  app.notFound(notFound);

  app.use(headers(new URL(deps.config.baseUrl).origin));
  if (site.secure) app.use(secureHeaders({ strictTransportSecurity: 'max-age=15552000; includeSubDomains', overwrite: false }));
  app.get('/healthz', (c) => c.json({ ok: true }));
  app.route('/assets', assetRoutes());
  for (const prefix of GATEWAY_PAGES) app.route(prefix, gatewayPageRoutes(deps.config.baseUrl));

  // Every page is someone's own, or carries a sign-in link's token: no cache keeps one.
  app.use(async (c, next) => {
    c.header('Cache-Control', 'no-store');
    await next();
  });
  app.use(sameOriginOnly(site));
  app.use(loadSession(deps, site));
  app.route('/sign-in', signInRoutes(deps, site));
  // The MCP consent page signs in first and checks its own form's CSRF token (routes/oauth.tsx).
  app.route('/oauth', oauthRoutes(deps, site));

  // The device flow's approval page: sign in, then back to it with its code.
  app.use('/keys/approve', signInThenReturn(site));
  // Everything below needs a session, and each of its forms the session's CSRF token.
  for (const path of ['/', '/account', '/account/*', '/keys', '/keys/*', '/workspace', '/workspace/*', '/productions/*', '/projects/*', '/webhooks', '/webhooks/*', '/sign-out']) {
    app.use(path, requireSignIn(deps, site), csrfTokenRequired);
  }
  app.route('/sign-out', signOutRoute(deps, site));
  app.route('/account', accountRoutes(deps, site));
  const domain = domainDeps(deps);
  app.route('/keys/approve', keyApprovalRoutes(deps, domain));
  app.route('/keys', keyRoutes(deps));
  app.route('/workspace', workspaceRoutes(deps));
  app.route('/productions/new', newProductionRoutes(deps, domain));
  app.route('/productions', productionPageRoutes(deps, domain));
  app.route('/projects', projectRoutes(deps, domain));
  app.route('/webhooks', webhookRoutes(deps, domain));
  app.route('/', productionRoutes(deps));
  return app;
}

export type App = ReturnType<typeof createApp>;
