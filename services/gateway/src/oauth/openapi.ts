import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Env } from 'hono';

const tags = ['MCP and OAuth'];
const PUBLIC = { security: [] };
const json = (description: string, schema: z.ZodType = z.looseObject({})) => ({ description, content: { 'application/json': { schema } } });
const OAuthError = z.object({ error: z.string().meta({ description: 'The OAuth error code (`invalid_request`, `invalid_grant`, …).' }), error_description: z.string() });
const form = <T extends z.ZodType>(schema: T) => ({ required: true, content: { 'application/x-www-form-urlencoded': { schema } } });
const LIMITED = { 429: json('More than 60 requests a minute from this address.') };
const Tokens = z.object({ access_token: z.string(), token_type: z.literal('Bearer'), expires_in: z.int(), refresh_token: z.string() });

const ROUTES = [
  ...['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp'].map((path) => createRoute({
    method: 'get', path, tags, ...PUBLIC, summary: 'Protected Resource Metadata of /mcp (RFC 9728)',
    responses: { 200: json('Where to get a token for /mcp.', z.object({ resource: z.url(), authorization_servers: z.array(z.url()) }).loose()) },
  })),
  createRoute({
    method: 'get', path: '/.well-known/oauth-authorization-server', tags, ...PUBLIC, summary: 'Authorization Server Metadata (RFC 8414)',
    description: 'The authorization endpoint is the app\'s consent page (`{app_url}/oauth/authorize`).',
    responses: { 200: json('The endpoints and what they support.', z.object({ issuer: z.url(), authorization_endpoint: z.url(), token_endpoint: z.url() }).loose()) },
  }),
  createRoute({
    method: 'post', path: '/oauth/register', tags, ...PUBLIC, summary: 'Dynamic Client Registration (RFC 7591): a public client using PKCE',
    request: { body: { required: true, content: { 'application/json': { schema: z.object({ redirect_uris: z.array(z.string()).min(1).max(10), client_name: z.string().max(100).optional() }).loose() } } } },
    responses: { 201: json('Registered: `client_id`.', z.object({ client_id: z.string() }).loose()), 400: json('Invalid metadata (`invalid_client_metadata`).', OAuthError), ...LIMITED },
  }),
  createRoute({
    method: 'post', path: '/oauth/token', tags, ...PUBLIC, summary: 'Token endpoint: a code with its PKCE verifier, or a refresh token (rotated), for tokens bound to /mcp',
    request: {
      body: form(z.object({
        grant_type: z.enum(['authorization_code', 'refresh_token']), client_id: z.string(), code: z.string().optional(), code_verifier: z.string().optional(),
        redirect_uri: z.string().optional(), refresh_token: z.string().optional(), resource: z.string().optional(),
      })),
    },
    responses: { 200: json('An access token (1 hour) and a refresh token (30 days, single use).', Tokens), 400: json('Refused (`invalid_grant`, `invalid_request`, `invalid_target`, …).', OAuthError), 401: json('Unknown client (`invalid_client`).', OAuthError), ...LIMITED },
  }),
  createRoute({
    method: 'post', path: '/oauth/revoke', tags, ...PUBLIC, summary: 'Token revocation (RFC 7009): a refresh token revokes its whole connection',
    request: { body: form(z.object({ token: z.string(), client_id: z.string().optional(), token_type_hint: z.string().optional() })) },
    responses: { 200: { description: 'Revoked, or not a token of ours.' }, 400: json('`token` is missing.', OAuthError), ...LIMITED },
  }),
];

/** The OAuth endpoints in the OpenAPI document (their routes are plain Hono, in routes.ts and metadata.ts). */
export function documentOAuth<E extends Env>(app: OpenAPIHono<E>) {
  for (const route of ROUTES) app.openAPIRegistry.registerPath(route);
}
