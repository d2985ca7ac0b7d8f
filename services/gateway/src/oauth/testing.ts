import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { Db } from '@vp/db';
import { approveAuthorization, checkAuthorization, type AuthorizationParams } from '@vp/oauth';
import { seedAccount } from '@vp/testing';
import { json, withKey } from '../testing/gateway.ts';

/** A native client's loopback redirect, as the tests register it. */
export const REDIRECT = 'http://127.0.0.1:7777/callback';

/** A PKCE pair as a client makes one: a random verifier and its S256 challenge. */
export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/**
 * An authorization approved by `accountId` as the consent page approves it (the page itself is
 * tested in the browser): the code the client's redirect URI receives.
 */
export async function approvedCode(db: Db, baseUrl: string, accountId: string, params: AuthorizationParams): Promise<string> {
  const request = await checkAuthorization({ db, baseUrl, allowPrivateUrls: false }, { response_type: 'code', code_challenge_method: 'S256', resource: `${baseUrl}/mcp`, ...params });
  const target = new URL(await approveAuthorization(db, { accountId, actor: `user:${accountId}`, via: 'app' }, request, baseUrl));
  return target.searchParams.get('code')!;
}

/** A form-encoded POST, as OAuth's token and revocation endpoints take one. */
export const form = (params: Record<string, string>): RequestInit => ({
  method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(params).toString(),
});

/** How a test asks the gateway: its app's `request`, or `fetch` at its address. */
type Ask = (path: string, init?: RequestInit) => Response | Promise<Response>;

/**
 * A client registered by RFC 7591 with `metadata`, connected by `accountId` as the consent page
 * approves it (its first redirect URI): the code traded for tokens, and a way to ask for more.
 */
export async function connectClient(ask: Ask, db: Db, baseUrl: string, accountId: string, metadata: { redirect_uris: string[]; [field: string]: unknown }) {
  const client = await json(await ask('/oauth/register', withKey(null, { json: metadata })));
  const redirectUri = metadata.redirect_uris[0]!;
  const { verifier, challenge } = pkce();
  const code = await approvedCode(db, baseUrl, accountId, { client_id: client.client_id, redirect_uri: redirectUri, code_challenge: challenge });
  const token = (params: Record<string, string>) => ask('/oauth/token', form({ client_id: client.client_id, ...params }));
  const exchanged = await token({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: redirectUri });
  expect(exchanged.status).toBe(200);
  return { client, tokens: await json(exchanged), token };
}

/** A client registered by RFC 7591, and a new account that connected it: its first tokens, and a way to ask for more. */
export async function connectedAccount(gateway: { app: { request: Ask }; config: { baseUrl: string } }, db: Db) {
  const { account, apiKey } = await seedAccount(db, { credits: 100 });
  const ask: Ask = (path, init) => gateway.app.request(path, init);
  const { client, tokens, token } = await connectClient(ask, db, gateway.config.baseUrl, account.id, { client_name: 'Test assistant', redirect_uris: [REDIRECT] });
  return { account, apiKey, clientId: client.client_id as string, tokens, token };
}
