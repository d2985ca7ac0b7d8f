import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect } from 'vitest';
import { ACCESS_TOKEN_MS, authenticateAccessToken, checkAuthorization, isAuthorizationRefusal, type AuthorizationRefusal } from '@vp/oauth';
import { createRateLimiter } from '@vp/db';
import { seedAccount, test } from '@vp/testing';
import { createTestGateway, json, withKey } from '../testing/gateway.ts';
import { approvedCode, connectedAccount, form, pkce, REDIRECT } from './testing.ts';

const it = test.extend('gateway', { scope: 'file' }, async ({ database }, { onCleanup }) => {
  const gateway = await createTestGateway(database);
  onCleanup(gateway.close);
  return gateway;
});

type Gateway = Awaited<ReturnType<typeof createTestGateway>>;

const mcp = (gateway: Gateway, bearer?: string) => gateway.app.request('/mcp', {
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
});

describe('discovery (RFC 9728, RFC 8414)', () => {
  it('publishes the protected resource and the authorization server, whose consent page is the app\'s', async ({ gateway }) => {
    const { baseUrl, appUrl } = gateway.config;
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      expect(await json(await gateway.app.request(path))).toMatchObject({ resource: `${baseUrl}/mcp`, authorization_servers: [baseUrl] });
    }
    expect(await json(await gateway.app.request('/.well-known/oauth-authorization-server'))).toMatchObject({
      issuer: baseUrl, authorization_endpoint: `${appUrl}/oauth/authorize`, token_endpoint: `${baseUrl}/oauth/token`,
      registration_endpoint: `${baseUrl}/oauth/register`, revocation_endpoint: `${baseUrl}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'], client_id_metadata_document_supported: true,
    });
  });

  it('answers /mcp without a token, with an API key, or with a bad token 401 pointing at the metadata', async ({ gateway, database }) => {
    const { apiKey } = await seedAccount(database.db);
    const hint = `resource_metadata="${gateway.config.baseUrl}/.well-known/oauth-protected-resource/mcp"`;
    for (const [what, bearer] of [['none', undefined], ['an API key', apiKey], ['a made-up token', 'vp_mcp_at_nothing']] as const) {
      const res = await mcp(gateway, bearer);
      expect(res.status, what).toBe(401);
      expect(res.headers.get('www-authenticate'), what).toContain(hint);
    }
    expect((await json(await mcp(gateway, apiKey))).error).toMatch(/API keys do not work at \/mcp/);
  });
});

describe('registration (RFC 7591)', () => {
  it('registers a public client and refuses redirect URIs that could leak a code', async ({ gateway }) => {
    const register = (body: unknown) => gateway.app.request('/oauth/register', withKey(null, { json: body }));
    const res = await register({ client_name: 'Claude', redirect_uris: ['https://claude.ai/api/mcp/auth_callback', REDIRECT], token_endpoint_auth_method: 'client_secret_post' });
    expect(res.status).toBe(201);
    expect(await json(res)).toMatchObject({ client_id: expect.any(String), client_name: 'Claude', token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'] });
    for (const uri of ['javascript:alert(1)', 'http://example.com/callback', 'https://example.com/cb#frag', 'not a url']) {
      const refused = await register({ redirect_uris: [uri] });
      expect(refused.status, uri).toBe(400);
      expect((await json(refused)).error, uri).toBe('invalid_client_metadata');
    }
    expect((await register({ redirect_uris: [REDIRECT], grant_types: ['client_credentials'] })).status).toBe(400);
  });
});

/** A client's Client ID Metadata Document, served on this machine; `documents` maps a path to its body. */
async function documentServer(documents: (origin: string) => Record<string, unknown>) {
  const server = createServer((req, res) => {
    const body = documents(origin)[req.url ?? ''];
    if (!body) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('Client ID Metadata Documents', () => {
  it('takes the URL of a document as client_id, fetched once, with the redirect URIs it lists', async ({ gateway, database }) => {
    const { baseUrl } = gateway.config;
    const docs = await documentServer((origin) => ({
      '/client.json': { client_id: `${origin}/client.json`, client_name: 'Documented assistant', redirect_uris: [REDIRECT] },
      '/liar.json': { client_id: 'https://someone-else.example/client.json', redirect_uris: [REDIRECT] },
    }));
    try {
      const params = { response_type: 'code', redirect_uri: REDIRECT, code_challenge: pkce().challenge, code_challenge_method: 'S256' };
      // A document on this machine is fetched only where private addresses are allowed (development).
      const lookup = { db: database.db, baseUrl, allowPrivateUrls: true };
      const request = await checkAuthorization(lookup, { ...params, client_id: `${docs.origin}/client.json` });
      expect(request.client).toMatchObject({ kind: 'metadata_document', name: 'Documented assistant', redirectUris: [REDIRECT] });
      const refused = async (allowPrivateUrls: boolean, clientId: string) => {
        const error = await checkAuthorization({ ...lookup, allowPrivateUrls }, { ...params, client_id: clientId }).catch((e: unknown) => e);
        expect(isAuthorizationRefusal(error), clientId).toBe(true);
        return (error as AuthorizationRefusal);
      };
      expect((await refused(true, `${docs.origin}/liar.json`)).error.description).toMatch(/names another client_id/);
      expect((await refused(true, `${docs.origin}/missing.json`)).error.description).toMatch(/answered 404/);
      expect((await refused(false, `${docs.origin}/other.json`)).redirectTo).toBeNull();
    } finally {
      await docs.close();
    }
  });
});

describe('the authorization request', () => {
  it('needs S256 PKCE, a registered redirect URI (any loopback port) and this resource', async ({ gateway, database }) => {
    const { baseUrl } = gateway.config;
    const { client_id } = await json(await gateway.app.request('/oauth/register', withKey(null, { json: { redirect_uris: [REDIRECT] } })));
    const lookup = { db: database.db, baseUrl, allowPrivateUrls: false };
    const good = { client_id, response_type: 'code', redirect_uri: REDIRECT, code_challenge: pkce().challenge, code_challenge_method: 'S256', resource: `${baseUrl}/mcp`, state: 's1' };
    const refusal = (params: Record<string, string | undefined>) => checkAuthorization(lookup, params).then(
      () => { throw new Error('accepted'); },
      (error: unknown) => { expect(isAuthorizationRefusal(error)).toBe(true); return error as AuthorizationRefusal; },
    );
    await expect(checkAuthorization(lookup, good)).resolves.toMatchObject({ redirectUri: REDIRECT, resource: `${baseUrl}/mcp` });
    await expect(checkAuthorization(lookup, { ...good, redirect_uri: 'http://127.0.0.1:51234/callback' })).resolves.toMatchObject({ redirectUri: 'http://127.0.0.1:51234/callback' });

    // Back to the client, with the state: it can tell the person what went wrong.
    for (const [what, params, error] of [
      ['no challenge', { ...good, code_challenge: undefined, code_challenge_method: undefined }, 'invalid_request'],
      ['plain', { ...good, code_challenge_method: 'plain' }, 'invalid_request'],
      ['no method', { ...good, code_challenge_method: undefined }, 'invalid_request'],
      ['another audience', { ...good, resource: 'https://other.example/mcp' }, 'invalid_target'],
    ] as const) {
      const refused = await refusal(params);
      const back = new URL(refused.redirectTo!);
      expect([back.origin + back.pathname, back.searchParams.get('error'), back.searchParams.get('state')], what).toEqual([REDIRECT, error, 's1']);
    }
    // Never redirected: the address is not the client's.
    for (const [what, params] of [
      ['another redirect', { ...good, redirect_uri: 'https://attacker.example/callback' }],
      ['another loopback path', { ...good, redirect_uri: 'http://127.0.0.1:7777/other' }],
      ['an unknown client', { ...good, client_id: 'nobody' }],
    ] as const) {
      expect((await refusal(params)).redirectTo, what).toBeNull();
    }
  });
});

describe('the token endpoint', () => {
  it('gives 1-hour access tokens for /mcp; they do not work on /v1 and stop working after the hour', async ({ gateway, database }) => {
    const { tokens } = await connectedAccount(gateway, database.db);
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 3600, access_token: expect.stringMatching(/^vp_mcp_at_/), refresh_token: expect.stringMatching(/^vp_mcp_rt_/) });
    expect((await mcp(gateway, tokens.access_token)).status).toBe(200);
    const v1 = await gateway.app.request('/v1/productions', withKey(null, { headers: { authorization: `Bearer ${tokens.access_token}` } }));
    expect(v1.status).toBe(401);
    expect((await json(v1)).error).toMatch(/MCP access token does not work on \/v1/);
    const resource = `${gateway.config.baseUrl}/mcp`;
    const later = new Date(Date.now() + ACCESS_TOKEN_MS + 1000);
    await expect(authenticateAccessToken(database.db, tokens.access_token, resource, later)).resolves.toBeNull();
    // Bound to its audience: for any other resource it is nothing.
    await expect(authenticateAccessToken(database.db, tokens.access_token, 'https://other.example/mcp')).resolves.toBeNull();
    // Only the hash is kept.
    const stored = await database.db.oAuthToken.findMany();
    expect(JSON.stringify(stored)).not.toContain(tokens.access_token.slice(10));
  });

  it('refuses a code with the wrong verifier, a missing or other redirect URI, or another client, and a code used twice revokes what it gave', async ({ gateway, database }) => {
    const { account } = await seedAccount(database.db);
    const { client_id } = await json(await gateway.app.request('/oauth/register', withKey(null, { json: { redirect_uris: [REDIRECT] } })));
    const { verifier, challenge } = pkce();
    const code = await approvedCode(database.db, gateway.config.baseUrl, account.id, { client_id, redirect_uri: REDIRECT, code_challenge: challenge });
    const exchange = (params: Record<string, string | undefined>) => {
      const all = { grant_type: 'authorization_code', client_id, code, code_verifier: verifier, redirect_uri: REDIRECT, ...params };
      return gateway.app.request('/oauth/token', form(Object.fromEntries(Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== undefined))));
    };
    // The authorization request named its redirect_uri: the token request must name the same (OAuth 2.1 4.1.3).
    for (const [what, params, error] of [
      ['wrong verifier', { code_verifier: pkce().verifier }, 'invalid_grant'],
      ['no verifier', { code_verifier: '' }, 'invalid_request'],
      ['wrong redirect', { redirect_uri: 'http://127.0.0.1:7777/other' }, 'invalid_grant'],
      ['another loopback port', { redirect_uri: 'http://127.0.0.1:7778/callback' }, 'invalid_grant'],
      ['no redirect', { redirect_uri: undefined }, 'invalid_grant'],
      ['another client', { client_id: 'someone-else' }, 'invalid_grant'],
      ['another audience', { resource: 'https://other.example/mcp' }, 'invalid_target'],
    ] as const) {
      const res = await exchange(params);
      expect([res.status, (await json(res)).error], what).toEqual([400, error]);
    }
    const first = await exchange({});
    expect(first.status).toBe(200);
    const { access_token } = await json(first);
    const again = await exchange({});
    expect([again.status, (await json(again)).error]).toEqual([400, 'invalid_grant']);
    expect((await mcp(gateway, access_token)).status).toBe(401);
    expect((await gateway.app.request('/oauth/token', form({ grant_type: 'password' }))).status).toBe(400);
  });

  it('rotates refresh tokens; a reused one revokes the whole family', async ({ gateway, database }) => {
    const { tokens, token } = await connectedAccount(gateway, database.db);
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(refreshed.status).toBe(200);
    const second = await json(refreshed);
    expect(second.refresh_token).not.toBe(tokens.refresh_token);
    expect((await mcp(gateway, second.access_token)).status).toBe(200);

    const reused = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect([reused.status, (await json(reused)).error]).toEqual([400, 'invalid_grant']);
    for (const access of [tokens.access_token, second.access_token]) expect((await mcp(gateway, access)).status).toBe(401);
    const revokedToo = await token({ grant_type: 'refresh_token', refresh_token: second.refresh_token });
    expect([revokedToo.status, (await json(revokedToo)).error]).toEqual([400, 'invalid_grant']);
  });

  it('revokes (RFC 7009): a refresh token takes its family with it; an unknown token is no error', async ({ gateway, database }) => {
    const { tokens, token, clientId } = await connectedAccount(gateway, database.db);
    const revoke = (value: string) => gateway.app.request('/oauth/revoke', form({ token: value, client_id: clientId }));
    expect((await revoke('vp_mcp_rt_unknown')).status).toBe(200);
    expect((await revoke(tokens.refresh_token)).status).toBe(200);
    expect((await mcp(gateway, tokens.access_token)).status).toBe(401);
    expect((await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).status).toBe(400);
  });

  it('counts each connection\'s requests at /mcp: 120 a minute, then 429 with Retry-After', async ({ gateway, database }) => {
    // A clock of its own, fixed inside one minute: the count cannot straddle two windows.
    const limited = await createTestGateway(database, { limiter: createRateLimiter(database.db, () => Date.UTC(2031, 0, 1, 0, 0, 30)) });
    try {
      const { tokens } = await connectedAccount(gateway, database.db);
      const statuses: number[] = [];
      for (let i = 0; i < 121; i++) statuses.push((await mcp(limited, tokens.access_token)).status);
      expect(statuses.slice(0, 120).every((status) => status === 200)).toBe(true);
      const refused = await mcp(limited, tokens.access_token);
      expect([refused.status, (await json(refused)).code, refused.headers.get('retry-after')]).toEqual([429, 'rate_limited', '30']);
      // Another connection has its own count.
      expect((await mcp(limited, (await connectedAccount(gateway, database.db)).tokens.access_token)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
