import type { Scope } from '@vp/contracts';

/** How one part of the API is guarded: the key scope it needs and its rate limit (spec: Limits). */
export type Surface = {
  name: string;
  /** Path prefix, matched on whole segments. */
  prefix: string;
  method?: string;
  /**
   * `public`: no key needed. `any`: any live key, no scope. `oauth`: no API key at all; the
   * surface checks its own OAuth access tokens and counts each token's grant (the MCP server).
   */
  access: Scope | 'any' | 'public' | 'oauth';
  limit: { perMinute: number; per: 'key' | 'ip' | 'token' } | null;
  /** A revoked key is answered 404 `not_found` (counted against its limit), not 401. */
  revokedKeyNotFound?: boolean;
};

/** The spec's rate-limit table; the most specific entry wins (DELETE /v1/keys/current before /v1/keys). */
export const SURFACES: readonly Surface[] = [
  { name: 'openapi', prefix: '/v1/openapi.json', access: 'public', limit: null },
  { name: 'keys-current', prefix: '/v1/keys/current', method: 'DELETE', access: 'any', limit: { perMinute: 30, per: 'key' }, revokedKeyNotFound: true },
  { name: 'keys', prefix: '/v1/keys', access: 'public', limit: { perMinute: 60, per: 'ip' } },
  { name: 'productions', prefix: '/v1/productions', access: 'productions', limit: { perMinute: 120, per: 'key' } },
  { name: 'webhooks', prefix: '/v1/webhooks', access: 'productions', limit: { perMinute: 60, per: 'key' } },
  { name: 'renders', prefix: '/v1/renders', access: 'renders', limit: { perMinute: 30, per: 'key' } },
  { name: 'capture', prefix: '/v1/capture', access: 'capture', limit: null },
  { name: 'import', prefix: '/v1/import', access: 'import', limit: null },
  { name: 'production-links', prefix: '/production-links', access: 'public', limit: { perMinute: 30, per: 'ip' } },
  // The page those links open counts against the same 30 a minute.
  { name: 'production-links', prefix: '/go', access: 'public', limit: { perMinute: 30, per: 'ip' } },
  // A pitch's storyboard stills at their signed addresses (`previewUrl`), as a render's signed video: the signature is the credential.
  { name: 'storyboards', prefix: '/storyboards', access: 'public', limit: null },
  // The Temporal Web UI's codec endpoint (an operator's browser): its token is the credential, counted so it cannot be walked.
  { name: 'codec', prefix: '/codec', access: 'public', limit: { perMinute: 300, per: 'ip' } },
  // MCP (DECISIONS: MCP): OAuth access tokens only, limited per token as /v1/productions (mcp/routes.ts counts them).
  { name: 'mcp', prefix: '/mcp', access: 'oauth', limit: { perMinute: 120, per: 'token' } },
  // The authorization server's endpoints: registration, token, revocation; unauthenticated, so counted per address.
  { name: 'oauth', prefix: '/oauth', access: 'public', limit: { perMinute: 60, per: 'ip' } },
  { name: 'oauth-metadata', prefix: '/.well-known', access: 'public', limit: null },
];

/** Any other /v1 path still needs a live key; it then answers 404. */
const OTHER_V1: Surface = { name: 'v1', prefix: '/v1', access: 'any', limit: null };

/** Whether `path` is `prefix` or under it, on whole segments: `/v1x` is not under `/v1`. */
export const within = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/** The API's own paths, where keys work: /v1 and under it. */
export const isApiPath = (path: string) => within(path, '/v1');

export function surfaceOf(method: string, path: string): Surface | null {
  const found = SURFACES.find((s) => within(path, s.prefix) && (!s.method || s.method === method));
  if (found) return found;
  return isApiPath(path) ? OTHER_V1 : null;
}
