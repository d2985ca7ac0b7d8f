/**
 * The guard matrix (spec: Authentication, Errors): every route the OpenAPI document describes ×
 * every kind of caller → the status and code the spec gives. The routes come from the document, so
 * a new route is in the matrix the day it is documented, and one without a request here fails.
 */
import { describe, expect } from 'vitest';
import { createApiKey, revokeApiKey, startSession } from '@vp/accounts';
import { SCOPES, SESSION_COOKIE, type Scope } from '@vp/contracts';
import { seedAccount, test } from '@vp/testing';
import { surfaceOf, type Surface } from '../surfaces.ts';
import { createTestGateway, json } from '../testing/gateway.ts';

type Caller = 'no key' | 'bad key' | 'revoked key' | 'missing scope' | 'app session' | 'owner' | 'editor' | 'viewer' | 'other workspace';
const CALLERS: Caller[] = ['no key', 'bad key', 'revoked key', 'missing scope', 'app session', 'owner', 'editor', 'viewer', 'other workspace'];

/** What the spec says a caller gets: a status and code, or only "through the guard" (neither 401 nor 403, nor 500). */
type Expected = { status: number; code?: string | null } | 'through';

type World = Awaited<ReturnType<typeof seedWorld>>;

const it = test.extend('world', { scope: 'file' }, async ({ database }, { onCleanup }) => {
  // Updates to workflows that no worker runs here give up soon: the guard is what is tested. Endpoints on
  // this machine: nothing is delivered (no worker), and no name needs resolving.
  const gateway = await createTestGateway(database, { env: { TEMPORAL_UPDATE_DEADLINE_MS: '500', ALLOW_PRIVATE_URLS: 'true' } });
  onCleanup(gateway.close);
  return seedWorld(gateway, database.db);
});

/** Workspace A (its owner, an editor, a viewer), an account of its own elsewhere, and A's production and endpoint. */
async function seedWorld(gateway: Awaited<ReturnType<typeof createTestGateway>>, db: Parameters<typeof seedAccount>[0]) {
  const owner = await seedAccount(db, { credits: 100 });
  const workspaceId = owner.workspace.id;
  const member = async (role: 'editor' | 'viewer') => {
    const seeded = await seedAccount(db);
    await db.membership.create({ data: { workspaceId, accountId: seeded.account.id, role } });
    return seeded;
  };
  const [editor, viewer, other] = [await member('editor'), await member('viewer'), await seedAccount(db)];
  const request = (path: string, init: RequestInit = {}) => gateway.app.request(path, init);
  const asOwner = (method: string, path: string, body: unknown) => request(path, {
    method, headers: { authorization: `Bearer ${owner.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  const production = await json(await asOwner('POST', '/v1/productions', { workspaceId, brief: { intent: 'A guard matrix check' } }));
  const newEndpoint = async () => {
    const made = await json(await asOwner('POST', '/v1/webhooks', { workspaceId, url: 'http://127.0.0.1:9/matrix' }));
    expect(made.endpoint?.id, JSON.stringify(made)).toBeDefined();
    return made.endpoint.id as string;
  };
  expect(production.production?.id, JSON.stringify(production)).toBeDefined();
  const { token } = await db.$transaction((tx) => startSession(tx, { accountId: owner.account.id, workspaceId, now: new Date() }));
  return {
    db, request, newEndpoint, workspaceId, owner, editor, viewer, other, sessionToken: token,
    ids: { production: production.production.id as string, endpoint: await newEndpoint(), deletable: await newEndpoint() },
  };
}

/** Routes whose own credential is in the address (a signature): without it they refuse, as the spec says. */
const SIGNED = new Set(['GET /renders/{id}/video.mp4']);

/** Values for the path parameters: A's things where they exist, unknown ones elsewhere. */
function concretePath(world: World, path: string, endpointId = world.ids.endpoint): string {
  const unknown = '00000000-0000-4000-8000-000000000000';
  return path
    .replace(/^\/v1\/productions\/\{id\}/, `/v1/productions/${world.ids.production}`)
    .replace(/^\/v1\/webhooks\/\{id\}/, `/v1/webhooks/${endpointId}`)
    .replace(/\{token\}/g, 'not-a-link-token')
    .replace(/\{action\}/g, 'greenlight')
    .replace(/\{version\}/g, '1')
    .replace(/\{\w+\}/g, unknown);
}

/** A valid request for each documented write: the guard's answer, not the body's, is under test. */
const BODIES: Record<string, unknown> = {
  'POST /v1/productions': { brief: { intent: 'A guard matrix check' } },
  'POST /v1/productions/{id}/greenlight': {},
  'POST /v1/productions/{id}/comments': { comment: 'Shorter, please.' },
  'POST /v1/productions/{id}/decline': { reason: 'Not this one.' },
  'POST /v1/productions/{id}/cancel': {},
  'POST /v1/webhooks': { url: 'http://127.0.0.1:9/another' },
  'PATCH /v1/webhooks/{id}': { description: 'Renamed by the matrix' },
  'POST /production-links/{token}/comments': { comment: 'Shorter, please.' },
  'POST /production-links/{token}/decline': { reason: 'Not this one.' },
  'POST /v1/keys/request': { name: 'Guard matrix' },
  'POST /v1/keys/poll': { deviceCode: 'not-a-device-code' },
  'POST /oauth/register': { client_name: 'Guard matrix', redirect_uris: ['http://127.0.0.1:9/callback'] },
  'POST /mcp': { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
};
/** Writes that need no body. */
const NO_BODY = new Set([
  'DELETE /v1/webhooks/{id}', 'POST /v1/webhooks/{id}/roll-secret', 'POST /v1/webhooks/{id}/test',
  'POST /v1/webhooks/{id}/deliveries/{deliveryId}/redeliver', 'DELETE /v1/keys/current', 'POST /production-links/{token}/greenlight',
  'DELETE /mcp',
]);
/** Uploads and pages' forms: sent as the form they are, empty (refused past the guard with 400 at most). */
const FORMS = new Set([
  'POST /v1/renders', 'POST /oauth/token', 'POST /oauth/revoke', 'POST /go/{token}/{action}',
]);

/** Workspace-scoped /v1 routes whose list or create takes the workspace from `workspaceId`. */
const TARGETS_WORKSPACE = new Set(['GET /v1/productions', 'POST /v1/productions', 'GET /v1/productions/usage', 'GET /v1/webhooks', 'POST /v1/webhooks']);
/** Routes of things that belong to an account, not a workspace (a one-call render), or to the calling key. */
const ACCOUNT_ROUTES = /^(POST \/v1\/renders|GET \/v1\/renders\/\{id\}|DELETE \/v1\/keys\/current)$/;

async function keyFor(world: World, caller: Caller, route: string, scope: Scope | null): Promise<string | null> {
  const fresh = async (accountId: string, scopes: readonly Scope[]) => (await createApiKey(world.db, { accountId, name: caller, scopes })).apiKey;
  // DELETE /v1/keys/current revokes the key that calls it: each caller brings one of its own.
  const own = (seeded: World['owner']) => route === 'DELETE /v1/keys/current' ? fresh(seeded.account.id, SCOPES) : seeded.apiKey;
  switch (caller) {
    case 'no key': case 'app session': return null;
    case 'bad key': return `${world.owner.apiKey.slice(0, -4)}xxxx`;
    case 'revoked key': {
      const made = await createApiKey(world.db, { accountId: world.owner.account.id, name: 'revoked', scopes: SCOPES });
      await revokeApiKey(world.db, made.id);
      return made.apiKey;
    }
    case 'missing scope': return fresh(world.owner.account.id, SCOPES.filter((s) => s !== scope));
    case 'owner': return own(world.owner);
    case 'editor': return own(world.editor);
    case 'viewer': return own(world.viewer);
    case 'other workspace': return own(world.other);
  }
}

/** The spec's answer for one caller on one route. */
function expected(route: string, caller: Caller, access: Surface['access'] | null, revokedKeyNotFound: boolean): Expected {
  const [method] = route.split(' ');
  const keyed = caller !== 'no key' && caller !== 'app session';
  // The MCP server takes OAuth access tokens only: no key and no session of the app gets in (oauth.test.ts and e2e/mcp try tokens).
  if (access === 'oauth') return { status: 401, code: null };
  if (access === null) {
    // Outside /v1: pages and link routes that need no key, and refuse one (spec: Authentication 2).
    if (keyed) return { status: 403, code: 'api_key_scope' };
    return SIGNED.has(route) ? { status: 403, code: 'forbidden' } : 'through';
  }
  if (access === 'public') return 'through';
  if (caller === 'no key' || caller === 'bad key') return { status: 401, code: null };
  if (caller === 'app session') return route === 'DELETE /v1/keys/current' ? { status: 400, code: 'not_api_key' } : { status: 401, code: null };
  if (caller === 'revoked key') return revokedKeyNotFound ? { status: 404, code: 'not_found' } : { status: 401, code: null };
  if (caller === 'missing scope') return access === 'any' ? 'through' : { status: 403, code: 'api_key_missing_scope' };
  if (ACCOUNT_ROUTES.test(route)) return 'through';
  if (caller === 'viewer' && method !== 'GET') return { status: 403, code: 'forbidden' };
  if (caller === 'other workspace') return { status: 404, code: 'not_found' };
  // A member reads what its workspace has.
  if (method === 'GET') return { status: 200 };
  return 'through';
}

async function call(world: World, route: string, caller: Caller, key: string | null) {
  const [method, path] = route.split(' ') as [string, string];
  // An endpoint deleted by one caller would be gone for the next: each deletion takes its own.
  const endpointId = route === 'DELETE /v1/webhooks/{id}' ? world.ids.deletable : world.ids.endpoint;
  const url = new URL(concretePath(world, path, endpointId), 'http://gateway.test');
  if (TARGETS_WORKSPACE.has(route) && method === 'GET') url.searchParams.set('workspaceId', world.workspaceId);
  const headers: Record<string, string> = {};
  if (key) headers.authorization = `Bearer ${key}`;
  if (caller === 'app session') headers.cookie = `${SESSION_COOKIE.plain}=${world.sessionToken}`;
  let body: RequestInit['body'];
  if (FORMS.has(route)) {
    body = new FormData();
  } else if (method !== 'GET' && !NO_BODY.has(route)) {
    if (!(route in BODIES)) throw new Error(`The guard matrix has no request for ${route}: add one to BODIES, NO_BODY or FORMS`);
    const given = BODIES[route] as Record<string, unknown>;
    body = JSON.stringify(TARGETS_WORKSPACE.has(route) ? { ...given, workspaceId: world.workspaceId } : given);
    headers['content-type'] = 'application/json';
  }
  const res = await world.request(`${url.pathname}${url.search}`, { method, headers, body });
  if (route === 'DELETE /v1/webhooks/{id}' && res.status === 204) world.ids.deletable = await world.newEndpoint();
  return res;
}

describe('the guard matrix: every documented route × every caller (spec: Authentication, Errors)', () => {
  it('answers each as the spec says', async ({ world }) => {
    const doc = await json(await world.request('/v1/openapi.json'));
    const routes = Object.entries<Record<string, unknown>>(doc.paths)
      .flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
    expect(routes).toEqual(expect.arrayContaining(['GET /v1/productions', 'POST /v1/productions/{id}/greenlight', 'DELETE /v1/keys/current', 'GET /go/{token}']));
    const wrong: string[] = [];
    for (const route of routes) {
      const [method, path] = route.split(' ') as [string, string];
      const surface = surfaceOf(method, concretePath(world, path));
      const access = path.startsWith('/v1/') || surface?.access === 'oauth' ? surface?.access ?? 'any' : null;
      for (const caller of CALLERS) {
        const want = expected(route, caller, access, surface?.revokedKeyNotFound ?? false);
        const key = await keyFor(world, caller, route, access && access !== 'any' && access !== 'public' && access !== 'oauth' ? access : null);
        const res = await call(world, route, caller, key);
        // Pages answer in HTML: their status is what a browser and a script can tell apart.
        const got = res.headers.get('content-type')?.includes('json') ? await json(res) : undefined;
        const fine = want === 'through'
          ? ![401, 403, 500].includes(res.status)
          : res.status === want.status && (want.code === undefined || got === undefined || (got.code ?? null) === want.code);
        if (!fine) wrong.push(`${route} as ${caller}: got ${res.status} ${got?.code ?? ''} (${got?.error ?? ''}), want ${want === 'through' ? 'through the guard' : `${want.status} ${want.code ?? ''}`}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
