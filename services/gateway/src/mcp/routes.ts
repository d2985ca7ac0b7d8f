import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
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
import type { WaitSettings } from './wait-tool.ts';

/** DECISIONS: rate limits per token as /v1/productions's. */
export const MCP_PER_MINUTE = 120;
const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * /mcp: the Streamable HTTP transport, stateless (a POST in, its answer or an SSE stream out).
 * Only an OAuth access token for this resource gets in; anything else is a 401 pointing at the
 * protected resource metadata, where a client learns how to get one.
 */
export function mcpRoutes(deps: GatewayDeps, domain: Domain, limiter: RateLimiter, wait: WaitSettings) {
  const app = new Hono<GatewayEnv>();
  const { baseUrl } = deps.config;
  const resource = mcpResource(baseUrl);

  app.all('/', async (c) => {
    const token = c.req.header('authorization')?.match(BEARER)?.[1];
    if (!token) return unauthorized(c, baseUrl, null, 'Sign in: this MCP server takes OAuth access tokens (see the resource metadata).');
    if (token.startsWith(API_KEY_PREFIX)) return unauthorized(c, baseUrl, 'invalid_token', 'API keys do not work at /mcp: connect with OAuth (see the resource metadata).');
    const grant = await authenticateAccessToken(deps.db, token, resource);
    if (!grant) return unauthorized(c, baseUrl, 'invalid_token', 'The access token is invalid, expired, revoked, or for another resource.');
    const limited = await rateLimit(c, limiter, grant.grantId);
    if (limited) return limited;
    if (c.req.method !== 'POST') {
      // Stateless: no stream to resume, no session to end.
      return errorResponse(c, 405, { error: `${c.req.method} is not allowed here; use POST.`, code: 'method_not_allowed' }, { Allow: 'POST' });
    }
    const caller: Caller = { accountId: grant.accountId, actor: `user:${grant.accountId}`, via: 'mcp' };
    const server = createMcpServer(domain, deps.config, caller, wait);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    await server.connect(transport);
    return transport.handleRequest(c.req.raw, { authInfo: { token, clientId: grant.grantId, scopes: ['mcp'], resource: new URL(resource) } });
  });
  return app;
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
