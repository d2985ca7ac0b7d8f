import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Db } from '@vp/db';
import { connectClient } from '@vp/gateway/testing/oauth';

/**
 * An MCP client's OAuth state kept in memory, as a desktop assistant keeps it on disk: its
 * registration, its tokens, the PKCE verifier of the authorization under way, and the address
 * the SDK asked to open in the browser.
 */
export class MemoryOAuthProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;
  constructor(readonly redirectUrl: string, readonly clientName = 'Test assistant') {}

  get clientMetadata(): OAuthClientMetadata {
    return { client_name: this.clientName, redirect_uris: [this.redirectUrl], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  clientInformation() { return this.client; }
  saveClientInformation(client: OAuthClientInformationMixed) { this.client = client; }
  tokens() { return this.saved; }
  saveTokens(tokens: OAuthTokens) { this.saved = tokens; }
  redirectToAuthorization(url: URL) { this.authorizationUrl = url; }
  saveCodeVerifier(verifier: string) { this.verifier = verifier; }
  codeVerifier() { return this.verifier; }
}

/** A native client's loopback redirect listener: records each redirect's query and answers a page. */
export async function startCallbackServer() {
  const received: URLSearchParams[] = [];
  const waiting: ((query: URLSearchParams) => void)[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    // The browser asks for a favicon too: only the redirects count.
    if (url.pathname === '/callback') {
      received.push(url.searchParams);
      waiting.shift()?.(url.searchParams);
    }
    res.writeHead(200, { 'content-type': 'text/plain' }).end('You can close this window.');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
  return {
    url, received,
    /** The query of the next redirect to arrive (or of one that arrived since `seen`). */
    next: (seen = received.length) => (received.length > seen ? Promise.resolve(received[seen]!) : new Promise<URLSearchParams>((resolve) => waiting.push(resolve))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A client connected for `accountId` without the browser (the consent page is tested in
 * mcp.browser.test.ts): registered by RFC 7591, a code approved for the account, traded for tokens.
 */
export async function connectedProvider(baseUrl: string, db: Db, accountId: string, redirectUrl: string, clientName: string): Promise<MemoryOAuthProvider> {
  const provider = new MemoryOAuthProvider(redirectUrl, clientName);
  const { client, tokens } = await connectClient((path, init) => fetch(`${baseUrl}${path}`, init), db, baseUrl, accountId, provider.clientMetadata);
  provider.saveClientInformation(client);
  provider.saveTokens(tokens);
  return provider;
}
