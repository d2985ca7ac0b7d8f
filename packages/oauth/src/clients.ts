import { z } from 'zod';
import type { Db } from '@vp/db';
import { fetchPublic } from '@vp/net';
import { OAuthError } from './errors.ts';
import { CLIENT_DOCUMENT_MS } from './lifetimes.ts';
import { acceptableRedirect } from './redirects.ts';

export type OAuthClientRecord = { id: string; clientId: string; name: string; redirectUris: string[]; kind: 'registered' | 'metadata_document' };

const RedirectUris = z.array(z.string().max(2000).refine(acceptableRedirect, 'Redirect URIs are https, http on a loopback address, or an app\'s own scheme, without a fragment.')).min(1).max(10);

/** What a client may send to register (RFC 7591); only what we act on is read, the rest is kept for display. */
const Registration = z.looseObject({
  redirect_uris: RedirectUris,
  client_name: z.string().trim().min(1).max(100).optional(),
  grant_types: z.array(z.string()).optional(),
  response_types: z.array(z.string()).optional(),
  token_endpoint_auth_method: z.string().optional(),
});

/** Only public clients with PKCE: no client secrets to keep. */
const SUPPORTED = { grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' } as const;

/** RFC 7591 registration: a new public client. Answers the registration response's body. */
export async function registerClient(db: Db, body: unknown) {
  const parsed = Registration.safeParse(body);
  if (!parsed.success) throw new OAuthError('invalid_client_metadata', parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '));
  const unsupported = (parsed.data.grant_types ?? []).filter((g) => !(SUPPORTED.grant_types as readonly string[]).includes(g));
  if (unsupported.length) throw new OAuthError('invalid_client_metadata', `Unsupported grant types: ${unsupported.join(', ')}. Use authorization_code and refresh_token.`);
  const clientId = crypto.randomUUID();
  const name = parsed.data.client_name ?? 'An MCP client';
  const row = await db.oAuthClient.create({
    data: { clientId, kind: 'registered', name, redirectUris: parsed.data.redirect_uris, metadata: parsed.data as object },
  });
  return {
    client_id: clientId, client_id_issued_at: Math.floor(row.createdAt.getTime() / 1000), client_name: name,
    redirect_uris: row.redirectUris, ...SUPPORTED,
  };
}

/** A Client ID Metadata Document: its own URL as `client_id`, with at least its redirect URIs. */
const MetadataDocument = z.looseObject({ client_id: z.string(), client_name: z.string().trim().min(1).max(100).optional(), redirect_uris: RedirectUris });

export type ClientLookup = { db: Db; allowPrivateUrls: boolean; now?: Date };

/**
 * The client behind a `client_id`: a registered one, or the one whose metadata document that
 * URL is (fetched when first seen, and again once a day). Unknown: `invalid_client`.
 */
export async function clientFor(lookup: ClientLookup, clientId: string): Promise<OAuthClientRecord> {
  const { db } = lookup;
  const now = lookup.now ?? new Date();
  const row = await db.oAuthClient.findUnique({ where: { clientId } });
  if (row && (row.kind === 'registered' || now.getTime() - row.fetchedAt.getTime() < CLIENT_DOCUMENT_MS)) return row;
  if (!isDocumentUrl(clientId, lookup.allowPrivateUrls)) throw new OAuthError('invalid_client', 'Unknown client_id: register the client first, or use the https URL of its Client ID Metadata Document.', 401);
  const document = await fetchDocument(clientId, lookup.allowPrivateUrls);
  const data = { kind: 'metadata_document' as const, name: document.client_name ?? new URL(clientId).host, redirectUris: document.redirect_uris, metadata: document as object, fetchedAt: now };
  return db.oAuthClient.upsert({ where: { clientId }, create: { clientId, ...data }, update: data });
}

/** https with a path (the MCP revision's rule); http too on loopback when private URLs are allowed (development). */
function isDocumentUrl(clientId: string, allowPrivateUrls: boolean): boolean {
  try {
    const url = new URL(clientId);
    if (url.pathname === '/' || url.hash || url.username || url.password) return false;
    return url.protocol === 'https:' || (allowPrivateUrls && url.protocol === 'http:');
  } catch {
    return false;
  }
}

async function fetchDocument(url: string, allowPrivate: boolean) {
  const refused = (why: string) => new OAuthError('invalid_client', `The Client ID Metadata Document at ${url} ${why}.`, 401);
  const response = await fetchPublic(url, { timeoutMs: 5000, maxBytes: 10_000, allowPrivate, headers: { accept: 'application/json' } })
    .catch((error: unknown) => { throw refused(`could not be fetched (${error instanceof Error ? error.message : 'error'})`); });
  if (response.status !== 200) throw refused(`answered ${response.status}`);
  let body: unknown;
  try {
    body = JSON.parse(response.body.toString('utf8'));
  } catch {
    throw refused('is not JSON');
  }
  const parsed = MetadataDocument.safeParse(body);
  if (!parsed.success) throw refused(`is not valid: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  if (parsed.data.client_id !== url) throw refused('names another client_id');
  return parsed.data;
}
