import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '@vp/db';
import { approveAuthorization, checkAuthorization, type AuthorizationParams } from '@vp/oauth';

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
