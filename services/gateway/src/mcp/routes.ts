import { randomUUID } from 'node:crypto';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport, type HandleRequestOptions } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { Hono, type Context } from 'hono';
import type { Caller } from '@vp/contracts';
import { authenticateAccessToken, mcpResource } from '@vp/oauth';
import type { GatewayDeps, GatewayEnv } from '../deps.ts';
import type { Domain } from '@vp/domain';
import { errorResponse } from '../http/errors.ts';
import { protectedResourceMetadataUrl } from '../oauth/metadata.ts';
import { windowAt, type RateLimiter } from '../rate-limit/fixed-window.ts';
import { API_KEY_PREFIX } from '@vp/contracts';
import { createMcpServer } from './server.ts';
import type { McpSessions } from './sessions.ts';
import type { SubscriptionSettings } from './subscriptions.ts';
import type { WaitSettings } from './wait-tool.ts';

/** DECISIONS: rate limits per token as /v1/productions's. */
export const MCP_PER_MINUTE = 120;
const BEARER = /^Bearer\s+(\S+)\s*$/i;

export type McpSettings = { wait: WaitSettings; subscriptions: SubscriptionSettings; sessions: McpSessions };

/**
 * /mcp: the Streamable HTTP transport. A client that initializes gets a session (`Mcp-Session-Id`)
 * with a GET stream for server notifications (resource subscriptions) and DELETE to end it; a
 * request without a session is answered statelessly, as before. Only an OAuth access token for
 * this resource gets in; anything else is a 401 pointing at the protected resource metadata.
 */
export function mcpRoutes(deps: GatewayDeps, domain: Domain, limiter: RateLimiter, settings: McpSettings) {
  const app = new Hono<GatewayEnv>();
  const { baseUrl } = deps.config;
  const resource = mcpResource(baseUrl);

  app.on(['POST', 'GET', 'DELETE'], '/', async (c) => {
    const token = c.req.header('authorization')?.match(BEARER)?.[1];
    if (!token) return unauthorized(c, baseUrl, null, 'Sign in: this MCP server takes OAuth access tokens (see the resource metadata).');
    if (token.startsWith(API_KEY_PREFIX)) return unauthorized(c, baseUrl, 'invalid_token', 'API keys do not work at /mcp: connect with OAuth (see the resource metadata).');
    const grant = await authenticateAccessToken(deps.db, token, resource);
    if (!grant) return unauthorized(c, baseUrl, 'invalid_token', 'The access token is invalid, expired, revoked, or for another resource.');
    const limited = await rateLimit(c, limiter, grant.grantId);
    if (limited) return limited;
    const caller: Caller = { accountId: grant.accountId, actor: `user:${grant.accountId}`, via: 'mcp' };
    const authInfo: AuthInfo = { token, clientId: grant.grantId, scopes: ['mcp'], resource: new URL(resource) };
    const sessionId = c.req.header('mcp-session-id');
    if (sessionId !== undefined) return inSession(c, settings.sessions, sessionId, caller, authInfo);
    if (c.req.method !== 'POST') {
      return errorResponse(c, 405, { error: `${c.req.method} needs the Mcp-Session-Id of an initialized session; without one, use POST.`, code: 'method_not_allowed' }, { Allow: 'POST' });
    }
    // Read once here and handed on; a body that is not JSON is left to the transport, which answers it.
    const parsedBody: unknown = await c.req.raw.clone().json().catch(() => undefined);
    const initialize = isInitializeRequest(parsedBody);
    const server = createMcpServer(domain, deps.config, caller, settings.wait, initialize ? settings.subscriptions : undefined);
    if (initialize) return startSession(c, settings.sessions, server, caller, { authInfo, parsedBody });
    // No session: a server and a transport for this one request, as a stateless client expects.
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    await server.connect(transport);
    return transport.handleRequest(c.req.raw, { authInfo, parsedBody });
  });
  return app;
}

/** A request in a session: only the account that started it may use it; an unknown one is 404, so the client initializes again. */
async function inSession(c: Context, sessions: McpSessions, id: string, caller: Caller, authInfo: AuthInfo): Promise<Response> {
  const session = sessions.get(id);
  if (!session) return errorResponse(c, 404, { error: 'No such MCP session: it ended, or another server holds it. Initialize a new session.', code: 'not_found' });
  if (session.accountId !== caller.accountId) return errorResponse(c, 403, { error: 'This MCP session belongs to another account.', code: 'forbidden' });
  sessions.touch(session);
  const response = await session.transport.handleRequest(c.req.raw, { authInfo });
  return c.req.method === 'GET' ? sessions.track(session, response) : response;
}

/** An initialize request: a server and transport kept for the session the answer names. */
async function startSession(c: Context, sessions: McpSessions, server: McpServer, caller: Caller, options: HandleRequestOptions): Promise<Response> {
  const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (id) => sessions.add({ id, accountId: caller.accountId, server, transport }),
  });
  // Set before connect, which chains it: a DELETE or a close forgets the session.
  transport.onclose = () => sessions.forget(transport.sessionId);
  await server.connect(transport);
  return transport.handleRequest(c.req.raw, options);
}

function unauthorized(c: Context, baseUrl: string, error: 'invalid_token' | null, message: string) {
  const params = [`resource_metadata="${protectedResourceMetadataUrl(baseUrl)}"`, ...(error ? [`error="${error}"`, `error_description="${message}"`] : [])];
  return errorResponse(c, 401, { error: message }, { 'WWW-Authenticate': `Bearer ${params.join(', ')}` });
}

async function rateLimit(c: Context, limiter: RateLimiter, grantId: string): Promise<Response | null> {
  const hits = await limiter.hit(`mcp:grant:${grantId}`);
  const reset = Math.max(1, Math.ceil((windowAt(limiter.now()).resetAt.getTime() - limiter.now()) / 1000));
  c.header('RateLimit-Limit', String(MCP_PER_MINUTE));
  c.header('RateLimit-Remaining', String(Math.max(0, MCP_PER_MINUTE - hits)));
  c.header('RateLimit-Reset', String(reset));
  if (hits <= MCP_PER_MINUTE) return null;
  return errorResponse(c, 429, { error: `Rate limit of ${MCP_PER_MINUTE} requests a minute reached; retry in ${reset} s.`, code: 'rate_limited' }, { 'Retry-After': String(reset) });
}
