import { OpenAPIHono } from '@hono/zod-openapi';
import { createMiddleware } from 'hono/factory';
import { methodNotAllowed } from 'hono/method-not-allowed';
import { guard } from './auth/guard.ts';
import type { GatewayDeps, GatewayEnv } from './deps.ts';
import { codecRoutes } from './codec/routes.ts';
import { domainDeps } from '@vp/domain';
import { healthRoutes } from './health.ts';
import { closeAfterUnreadBody, limitBody, requireJsonBody } from './http/body.ts';
import { errorResponse, notFound, onError, validationHook } from './http/errors.ts';
import { requireUtf8Query } from './http/query.ts';
import { requestContext } from './http/request-context.ts';
import { refuseCrossSiteForms } from './http/csrf.ts';
import { notStored, ownOrigins, securityHeaders } from './http/security-headers.ts';
import { docsRoutes } from './docs.ts';
import { deviceKeyRoutes } from './keys/device-routes.ts';
import { keyRoutes } from './keys/routes.ts';
import { publishOpenApi } from './openapi.ts';
import { requireLinks } from '@vp/productions';
import { requireWebhooks } from '@vp/webhooks';
import { documentPages } from './pages-openapi.ts';
import { productionRoutes } from './productions/routes.ts';
import { linkPageRefusals, linkPageRoutes } from './links/page-routes.ts';
import { linkRoutes } from './links/routes.ts';
import { webhookRoutes } from './webhooks/routes.ts';
import { shareRoutes } from './share/routes.ts';
import { movedProjectRoutes } from './projects-moved.ts';
import { renderRoutes, renderVideoRoutes } from './renders/routes.ts';
import { storyboardRoutes } from './storyboards/routes.ts';
import { createRateLimiter, type RateLimiter } from './rate-limit/fixed-window.ts';
import { within } from './surfaces.ts';
import { cors } from 'hono/cors';
import { documentMcp } from './mcp/openapi.ts';
import { mcpRoutes } from './mcp/routes.ts';
import { McpSessions } from './mcp/sessions.ts';
import { SUBSCRIPTION_POLL_MS } from './mcp/subscriptions.ts';
import { oauthMetadataRoutes } from './oauth/metadata.ts';
import { documentOAuth } from './oauth/openapi.ts';
import { oauthRoutes } from './oauth/routes.ts';

/** Routes whose bodies are not JSON (multipart uploads). */
const NON_JSON_BODIES = (path: string) => within(path, '/v1/renders');
/** A new production's brief, the one JSON body that may be large. */
const BRIEFS = '/v1/productions';

/** The whole HTTP surface; `main.ts` serves it, tests call `app.request()`. */
export function createApp(deps: GatewayDeps, limiter: RateLimiter = createRateLimiter(deps.db)) {
  const app = new OpenAPIHono<GatewayEnv>({ defaultHook: validationHook });
  app.onError(onError);
  app.notFound(notFound);

  app.use(requestContext(deps.log));
  app.use(securityHeaders(deps.config));
  app.use('/v1/*', notStored);
  app.use('/production-links/*', notStored);
  // MCP clients may run in a browser: the metadata, the OAuth endpoints and /mcp take bearer tokens, never cookies.
  const openToScripts = cors({ origin: '*', allowHeaders: ['Authorization', 'Content-Type', 'Mcp-Protocol-Version', 'Mcp-Session-Id', 'Last-Event-ID'], exposeHeaders: ['WWW-Authenticate', 'Mcp-Session-Id', 'Retry-After'] });
  for (const path of ['/.well-known/*', '/oauth/*', '/mcp']) app.use(path, openToScripts);
  app.use('/oauth/*', notStored);
  app.use(closeAfterUnreadBody());
  // Under /go every answer is a page, a method not allowed's too.
  app.use('/go/*', linkPageRefusals);
  app.use(methodNotAllowed({
    app,
    onMethodNotAllowed: (c, allowed) =>
      errorResponse(c, 405, { error: `${c.req.method} is not allowed here; use ${allowed.join(', ')}.`, code: 'method_not_allowed' }, { Allow: allowed.join(', ') }),
  }));
  // The pages' forms, before anything acts or is counted.
  const sameSiteForms = refuseCrossSiteForms(ownOrigins(deps.config));
  app.use('/go/*', sameSiteForms);
  // The key and the rate limit first: a caller without a key gets its 401 (or 429) before a byte of
  // its body is read, and only authorised callers get as far as the body limits.
  app.use(guard(deps, limiter));
  const domain = domainDeps(deps);
  // A feature switched off on this server answers 503 whatever was sent: before any body check.
  app.use('/v1/webhooks/*', checkFirst(() => requireWebhooks(domain.webhooks.settings)));
  app.use('/production-links/*', checkFirst(() => requireLinks(domain.links)));
  app.use(limitBody(deps.config.http.bodyLimitBytes, { except: (path) => NON_JSON_BODIES(path) || path === BRIEFS }));
  app.use(BRIEFS, limitBody(deps.config.http.briefBodyLimitBytes));
  app.use('/v1/*', requireUtf8Query);
  app.use('/v1/*', requireJsonBody({ except: NON_JSON_BODIES }));
  app.use('/production-links/*', requireJsonBody());

  app.route('/', healthRoutes(deps));
  app.route('/v1/productions', productionRoutes<GatewayEnv>({ ...domain.productions, caller: (c) => c.var.principal }));
  app.route('/v1/webhooks', webhookRoutes<GatewayEnv>({ ...domain.webhooks, caller: (c) => c.var.principal }));
  app.route('/v1/keys', keyRoutes<GatewayEnv>({ db: deps.db, caller: (c) => c.var.principal }));
  app.route('/v1/keys', deviceKeyRoutes<GatewayEnv>({ ...domain.keyRequests, trustedProxies: deps.config.http.trustedProxies }));
  app.route('/production-links', linkRoutes<GatewayEnv>(domain.links));
  app.route('/', oauthMetadataRoutes(deps.config));
  app.route('/oauth', oauthRoutes({ db: deps.db }));
  app.route('/mcp', mcpRoutes(deps, domain, limiter, {
    wait: { pollMs: deps.mcp?.waitPollMs ?? 1000 },
    subscriptions: { pollMs: deps.mcp?.subscriptionPollMs ?? SUBSCRIPTION_POLL_MS },
    sessions: deps.mcp?.sessions ?? new McpSessions(),
  }));
  app.route('/go', linkPageRoutes(domain.links));
  const renders = { ...domain.renders, config: deps.config };
  app.route('/v1/renders', renderRoutes<GatewayEnv>({ ...renders, caller: (c) => c.var.principal, receivedAt: (c) => c.var.receivedAt }));
  app.route('/', renderVideoRoutes(renders));
  app.route('/', storyboardRoutes({ blobs: domain.renders.blobs, urlSecret: deps.config.secrets.urls }));
  app.route('/', shareRoutes({ ...deps, renders: domain.renders }));
  app.route('/', movedProjectRoutes(deps.config.appUrl));
  app.route('/', codecRoutes(deps.config));
  documentPages(app);
  documentOAuth(app);
  documentMcp(app);
  publishOpenApi(app, deps.config.baseUrl);
  app.route('/', docsRoutes());
  return app;
}

export type GatewayApp = ReturnType<typeof createApp>;

/** A middleware that runs `check`, which throws the refusal, before the rest of the chain. */
function checkFirst(check: () => void) {
  return createMiddleware<GatewayEnv>(async (_c, next) => {
    check();
    await next();
  });
}
