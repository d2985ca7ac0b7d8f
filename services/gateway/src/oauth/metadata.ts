import { Hono } from 'hono';
import { mcpResource } from '@vp/oauth';
import type { GatewayEnv } from '../deps.ts';

/** Where clients learn who guards /mcp (RFC 9728) and how to get a token there (RFC 8414). */
export function protectedResourceMetadataUrl(baseUrl: string): string {
  return `${baseUrl}/.well-known/oauth-protected-resource/mcp`;
}

export function oauthMetadataRoutes(settings: { baseUrl: string; appUrl: string }) {
  const { baseUrl, appUrl } = settings;
  const app = new Hono<GatewayEnv>();
  const resource = {
    resource: mcpResource(baseUrl),
    authorization_servers: [baseUrl],
    bearer_methods_supported: ['header'],
    scopes_supported: ['mcp'],
    resource_name: 'Video production MCP server',
    resource_documentation: `${baseUrl}/docs`,
  };
  // The path-suffixed form is what an MCP client asks first; the bare one serves clients that do not suffix.
  app.get('/.well-known/oauth-protected-resource/mcp', (c) => c.json(resource));
  app.get('/.well-known/oauth-protected-resource', (c) => c.json(resource));
  const server = {
    issuer: baseUrl,
    // The consent is a page of the app, where the account holder is signed in.
    authorization_endpoint: `${appUrl}/oauth/authorize`,
    token_endpoint: `${baseUrl}/oauth/token`,
    registration_endpoint: `${baseUrl}/oauth/register`,
    revocation_endpoint: `${baseUrl}/oauth/revoke`,
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    scopes_supported: ['mcp'],
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: true,
  };
  app.get('/.well-known/oauth-authorization-server', (c) => c.json(server));
  return app;
}
