import type { Caller } from '@vp/contracts';
import { hashSecret, randomSecret } from '@vp/accounts';
import { clientFor, type ClientLookup, type OAuthClientRecord } from './clients.ts';
import { OAuthError } from './errors.ts';
import { CODE_MS, mcpResource } from './lifetimes.ts';
import { redirectMatches } from './redirects.ts';

/** The query of an authorization request as the client sent it. */
export type AuthorizationParams = Partial<Record<'response_type' | 'client_id' | 'redirect_uri' | 'state' | 'code_challenge' | 'code_challenge_method' | 'resource' | 'scope', string>>;

export type AuthorizationRequest = {
  client: OAuthClientRecord; redirectUri: string; state: string | null; codeChallenge: string; resource: string;
};

/** A refusal the client hears at its redirect URI (once that is known to be its own), else a page. */
export type AuthorizationRefusal = { error: OAuthError; redirectTo: string | null };

const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Checks an authorization request. Until the client and its redirect URI are known good a
 * refusal is shown, never redirected (an open redirector otherwise); after, it goes back to the client.
 */
export async function checkAuthorization(lookup: ClientLookup & { baseUrl: string }, params: AuthorizationParams): Promise<AuthorizationRequest> {
  if (!params.client_id) throw refusal(new OAuthError('invalid_request', 'client_id is missing.'));
  const client = await clientFor(lookup, params.client_id).catch((error: unknown) => {
    throw error instanceof OAuthError ? refusal(error) : error;
  });
  const redirectUri = params.redirect_uri ?? (client.redirectUris.length === 1 ? client.redirectUris[0]! : '');
  if (!redirectUri) throw refusal(new OAuthError('invalid_request', 'redirect_uri is missing, and the client registered more than one.'));
  if (!redirectMatches(client.redirectUris, redirectUri)) {
    throw refusal(new OAuthError('invalid_request', 'redirect_uri is not one this client registered.'));
  }
  const state = params.state ?? null;
  const back = (error: OAuthError) => refusal(error, errorRedirect(redirectUri, error, state, lookup.baseUrl));
  if (params.response_type !== 'code') throw back(new OAuthError('invalid_request', 'response_type must be `code`.'));
  if (!params.code_challenge) throw back(new OAuthError('invalid_request', 'PKCE is required: send code_challenge with code_challenge_method=S256.'));
  if (params.code_challenge_method !== 'S256') throw back(new OAuthError('invalid_request', 'Only the S256 PKCE method is accepted (not `plain`, and it is not the default).'));
  if (!CHALLENGE.test(params.code_challenge)) throw back(new OAuthError('invalid_request', 'code_challenge must be the base64url SHA-256 of the verifier (43 characters).'));
  const resource = mcpResource(lookup.baseUrl);
  if (params.resource !== undefined && normalised(params.resource) !== resource) {
    throw back(new OAuthError('invalid_target', `Tokens here are only for ${resource}.`));
  }
  return { client, redirectUri, state, codeChallenge: params.code_challenge, resource };
}

/** The account said yes: a grant (the connection) and a single-use code for the client's redirect. */
export async function approveAuthorization(db: ClientLookup['db'], caller: Caller, request: AuthorizationRequest, baseUrl: string, now = new Date()): Promise<string> {
  const code = randomSecret();
  await db.oAuthGrant.create({
    data: {
      accountId: caller.accountId, clientId: request.client.id, resource: request.resource,
      codes: { create: { codeHash: hashSecret(code), redirectUri: request.redirectUri, codeChallenge: request.codeChallenge, expiresAt: new Date(now.getTime() + CODE_MS) } },
    },
  });
  return withParams(request.redirectUri, { code, state: request.state, iss: baseUrl });
}

/** The account said no. */
export function denyAuthorization(request: AuthorizationRequest, baseUrl: string): string {
  return errorRedirect(request.redirectUri, new OAuthError('access_denied', 'The account holder declined.'), request.state, baseUrl);
}

export const isAuthorizationRefusal = (value: unknown): value is AuthorizationRefusal =>
  typeof value === 'object' && value !== null && 'error' in value && (value as AuthorizationRefusal).error instanceof OAuthError && 'redirectTo' in value;

const refusal = (error: OAuthError, redirectTo: string | null = null): AuthorizationRefusal => ({ error, redirectTo });

function errorRedirect(redirectUri: string, error: OAuthError, state: string | null, baseUrl: string): string {
  return withParams(redirectUri, { error: error.error, error_description: error.description, state, iss: baseUrl });
}

function withParams(uri: string, params: Record<string, string | null>): string {
  const url = new URL(uri);
  for (const [name, value] of Object.entries(params)) if (value !== null) url.searchParams.set(name, value);
  return url.href;
}

function normalised(resource: string): string {
  try {
    const url = new URL(resource);
    return url.href.replace(/\/$/, '');
  } catch {
    return resource;
  }
}
