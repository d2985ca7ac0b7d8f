import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Env } from 'hono';

const tags = ['MCP and OAuth'];
const security = [{ mcpOAuth: [] }];
const SESSION = z.object({ 'mcp-session-id': z.string().meta({ description: 'The session `initialize` answered with.' }) });
const error = (description: string) => ({ description, content: { 'application/json': { schema: z.looseObject({ error: z.string(), code: z.string().optional() }) } } });
const REFUSALS = {
  401: error('No OAuth access token for /mcp (an API key included); `WWW-Authenticate` names the resource metadata.'),
  429: error('More than 120 requests a minute with this connection.'),
};
const IN_SESSION = {
  403: error('The session belongs to another account (`forbidden`).'),
  404: error('No such session (it ended, or another server holds it): initialize again (`not_found`).'),
};

const ROUTES = [
  createRoute({
    method: 'post', path: '/mcp', tags, security, summary: 'MCP (Streamable HTTP, revision 2025-11-25): a JSON-RPC message',
    description: '`initialize` starts a session: the answer carries `Mcp-Session-Id`, which later requests send. A request without one is answered on its own (stateless).',
    request: { body: { required: true, content: { 'application/json': { schema: z.looseObject({ jsonrpc: z.literal('2.0'), method: z.string().optional() }) } } } },
    responses: {
      200: { description: 'The answer, as JSON or an SSE stream.', content: { 'application/json': { schema: z.looseObject({}) }, 'text/event-stream': { schema: z.string() } } },
      202: { description: 'A notification or response accepted.' },
      ...REFUSALS, ...IN_SESSION,
    },
  }),
  createRoute({
    method: 'get', path: '/mcp', tags, security, summary: 'MCP: the session\'s stream of server notifications (resource updates)',
    request: { headers: SESSION },
    responses: { 200: { description: 'An SSE stream.', content: { 'text/event-stream': { schema: z.string() } } }, 405: error('No session named: without one there is no stream.'), ...REFUSALS, ...IN_SESSION },
  }),
  createRoute({
    method: 'delete', path: '/mcp', tags, security, summary: 'MCP: end the session',
    request: { headers: SESSION },
    responses: { 200: { description: 'Ended.' }, 405: error('No session named.'), ...REFUSALS, ...IN_SESSION },
  }),
];

/** /mcp in the OpenAPI document (the route is plain Hono, in routes.ts; what it speaks is MCP, described by its own spec). */
export function documentMcp<E extends Env>(app: OpenAPIHono<E>) {
  app.openAPIRegistry.registerComponent('securitySchemes', 'mcpOAuth', {
    type: 'http', scheme: 'bearer', description: 'An OAuth 2.1 access token for the `/mcp` resource (`vp_mcp_at_…`), from `/oauth/token`.',
  });
  for (const route of ROUTES) app.openAPIRegistry.registerPath(route);
}
