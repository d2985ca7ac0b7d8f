import { Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { createAccount, createApiKey, createWorkspace, setMember } from '@vp/accounts';
import { WebhookDelivery, WebhookEndpoint, WebhookEndpointWithSecret, WebhookEventPayload } from '@vp/contracts';
import type { Db } from '@vp/db';
import { seedAccount, test, waitFor } from '@vp/testing';
import { verifyWebhook } from '@vp/webhook-verify';
import { insertEndpoint, createSecretBox, unattemptedDeliveries } from '@vp/webhooks';
import { startReceiver, type Answer, type Receiver } from '@vp/webhooks/testing';
import { appOverTemporal, createTestGateway, json, withKey } from '@vp/gateway/testing';
import { createTestStack } from '../stack.ts';

let receiver: Receiver;
const answers = new Map<string, () => Answer>();
beforeAll(async () => {
  receiver = await startReceiver((request) => answers.get(request.path)?.() ?? { status: 200, body: 'ok' });
});
afterAll(() => receiver.close());

// The whole service with real workers. Private URLs are allowed so it can reach the local HTTPS receiver.
const it = test.extend('stack', { scope: 'file' }, async ({ database }, { onCleanup }) => {
  const stack = await createTestStack(database, {
    env: { ALLOW_PRIVATE_URLS: 'true', WEBHOOK_RETRY_SCHEDULE_MS: '200,200', WEBHOOK_TIMEOUT_MS: '1000' },
    worker: { webhookTransport: { ca: receiver.ca }, mailer: null },
  });
  onCleanup(stack.close);
  return stack;
});
type Stack = Awaited<ReturnType<typeof createTestStack>>;

/** A gateway without the development switch: private and loopback URLs are refused. */
const strict = test.extend('gateway', { scope: 'file' }, async ({ database }, { onCleanup }) => {
  const gateway = await createTestGateway(database, { env: { ALLOW_PRIVATE_URLS: 'false' } });
  onCleanup(gateway.close);
  return gateway;
});

/** A gateway with webhooks switched off. */
const off = test.extend('switchedOff', { scope: 'file' }, async ({ database }, { onCleanup }) => {
  const gateway = await createTestGateway(database, { env: { WEBHOOKS_ENABLED: 'false' } });
  onCleanup(gateway.close);
  return gateway;
});

/** A gateway whose Temporal cannot start a workflow (its namespace does not exist): deliveries cannot be queued. */
const unqueued = test.extend('cannotQueue', { scope: 'file' }, async ({ database }, { onCleanup }) => {
  const gateway = await createTestGateway(database, { env: { ALLOW_PRIVATE_URLS: 'true' } });
  onCleanup(gateway.close);
  const temporal = new Client({ connection: gateway.temporal.client.connection, namespace: `no-such-namespace-${crypto.randomUUID()}` });
  return { app: appOverTemporal(gateway, database.db, temporal) };
});

let hooks = 0;
const hookUrl = () => `https://localhost:${receiver.port}/hook-${++hooks}`;
const receivedAt = (url: string) => receiver.received.filter((r) => r.path === new URL(url).pathname);

async function caller(stack: Pick<Stack, 'app'>, db: Db) {
  const seeded = await seedAccount(db);
  const call = (path: string, init: { method?: string; json?: unknown } = {}) => stack.app.request(path, withKey(seeded.apiKey, init));
  const create = async (body: Record<string, unknown> = {}) => call('/v1/webhooks', { json: { url: hookUrl(), ...body } });
  const created = async (body: Record<string, unknown> = {}) => {
    const res = await create(body);
    expect(res.status).toBe(201);
    return (await json(res)).endpoint as WebhookEndpointWithSecret;
  };
  return { ...seeded, call, create, created };
}

describe('POST /v1/webhooks', () => {
  it('creates an endpoint (201) with every field, subscribed to every default type, and shows its whsec_ secret once', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    const url = hookUrl();
    const res = await me.create({ url, description: 'Release bot' });
    expect(res.status).toBe(201);
    const { endpoint } = await json(res);
    expect(WebhookEndpointWithSecret.parse(endpoint)).toEqual(endpoint);
    expect(endpoint).toMatchObject({
      workspaceId: me.workspace.id, url, description: 'Release bot', enabled: true, disabledReason: null, consecutiveFailures: 0,
      lastAttemptAt: null, lastSuccessAt: null, previousSecretExpiresAt: null,
      events: ['production.pitch_ready', 'production.skipped', 'production.greenlit', 'production.delivered', 'production.failed', 'production.declined', 'production.cancelled'],
    });
    expect(endpoint.secret).toMatch(/^whsec_[\w-]{43}$/);

    const read = await json(await me.call(`/v1/webhooks/${endpoint.id}`));
    expect(read.endpoint).not.toHaveProperty('secret');
    expect(WebhookEndpoint.strict().parse(read.endpoint)).toEqual(read.endpoint);
    const { endpoints } = await json(await me.call('/v1/webhooks'));
    expect(endpoints.map((e: { id: string }) => e.id)).toEqual([endpoint.id]);
    expect(endpoints[0]).not.toHaveProperty('secret');

    // Stored sealed, never logged.
    const row = await database.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(JSON.stringify(row)).not.toContain(endpoint.secret.slice(6));
    expect(JSON.stringify(stack.logs)).not.toContain(endpoint.secret.slice(6));
  });

  it('takes the events listed: production.progress only when opted in', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    const endpoint = await me.created({ events: ['production.progress', 'production.delivered'] });
    expect(endpoint.events).toEqual(['production.progress', 'production.delivered']);
  });

  it.for([
    ['a url that is not a url', { url: 'not a url' }, 'url'],
    ['a url over 2000 characters', { url: `https://hooks.example.com/${'a'.repeat(2000)}` }, 'url'],
    ['a description over 200 characters', { description: 'd'.repeat(201) }, 'description'],
    ['no events', { events: [] }, 'events'],
    ['an event twice', { events: ['production.greenlit', 'production.greenlit'] }, 'events'],
    ['ping, which cannot be subscribed to', { events: ['ping'] }, 'events.0'],
    ['an unknown event type', { events: ['production.exploded'] }, 'events.0'],
  ] as const)('refuses %s (400)', async ([, body, path], { stack, database }) => {
    const me = await caller(stack, database.db);
    const res = await me.create(body);
    expect(res.status).toBe(400);
    expect((await json(res)).issues.map((i: { path: string }) => i.path)).toContain(path);
  });

  it('keeps the url as given, trimmed; a scheme in capitals is https all the same, and is delivered to', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    const url = hookUrl().replace('https:', 'HTTPS:');
    const endpoint = await me.created({ url: `  ${url}\n` });
    expect(endpoint.url).toBe(url);
    expect((await me.call(`/v1/webhooks/${endpoint.id}/test`, { method: 'POST' })).status).toBe(202);
    await waitFor(() => receivedAt(url).length === 1, { what: 'the ping' });
  });

  it('refuses the 11th endpoint of a workspace (409 limit), also when they race', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    const results = await Promise.all(Array.from({ length: 12 }, () => me.create()));
    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    const refused = results.filter((r) => r.status === 409);
    expect(refused).toHaveLength(2);
    expect(await json(refused[0]!)).toEqual({ error: expect.any(String), code: 'limit' });
    // A deleted endpoint frees its place.
    const { endpoints } = await json(await me.call('/v1/webhooks'));
    expect((await me.call(`/v1/webhooks/${endpoints[0].id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await me.create()).status).toBe(201);
  });

  it('targets another workspace with workspaceId; one the caller cannot see is 404', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    const team = await createWorkspace(database.db, { ownerId: me.account.id, name: 'Team' });
    const endpoint = await me.created({ workspaceId: team.id });
    expect(endpoint.workspaceId).toBe(team.id);
    expect((await json(await me.call(`/v1/webhooks?workspaceId=${team.id}`))).endpoints).toHaveLength(1);
    const stranger = await caller(stack, database.db);
    expect((await stranger.create({ workspaceId: team.id })).status).toBe(404);
    expect((await stranger.call(`/v1/webhooks?workspaceId=${team.id}`)).status).toBe(404);
  });
});

describe('webhook endpoint URLs (SSRF), without the development switch', () => {
  strict.for([
    'http://hooks.example.com/plain-http',
    'https://localhost/hook',
    'https://127.0.0.1/hook',
    'https://[::1]/hook',
    'https://10.0.0.8/hook',
    'https://172.16.4.2/hook',
    'https://192.168.1.20/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://100.64.1.1/hook',
    'https://224.0.0.251/hook',
    'https://0.0.0.0/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://[::ffff:a9fe:a9fe]/hook',
    'https://[fc00::1]/hook',
    'https://[fe80::1]/hook',
    'https://2130706433/hook',
  ])('refuses %s at create (400)', async (url, { gateway, database }) => {
    const me = await caller(gateway, database.db);
    const res = await me.call('/v1/webhooks', { json: { url } });
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(body).toEqual({ error: expect.stringMatching(/https|public/), issues: expect.any(Array) });
    expect(body.issues).toEqual([{ path: 'url', message: body.error }]);
  });

  strict('refuses a private url on PATCH too (400 with issues)', async ({ gateway, database }) => {
    const me = await caller(gateway, database.db);
    const { row } = await insertEndpoint(database.db, createSecretBox(gateway.config.secrets.webhookKey), { workspaceId: me.workspace.id, url: 'https://93.184.215.14/hook' });
    const res = await me.call(`/v1/webhooks/${row.id}`, { method: 'PATCH', json: { url: 'https://10.1.1.1/hook' } });
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({
      error: expect.stringContaining('public'), issues: [{ path: 'url', message: expect.stringContaining('10.1.1.1') }],
    });
  });

  strict('answers test and redeliver for an endpoint at a private address with 409 wrong_server', async ({ gateway, database }) => {
    const me = await caller(gateway, database.db);
    // Made while the switch was on (or before its host's DNS changed).
    const { row } = await insertEndpoint(database.db, createSecretBox(gateway.config.secrets.webhookKey), { workspaceId: me.workspace.id, url: 'https://localhost:9/hook' });
    const res = await me.call(`/v1/webhooks/${row.id}/test`, { method: 'POST' });
    expect(res.status).toBe(409);
    expect(await json(res)).toMatchObject({ code: 'wrong_server', error: expect.stringContaining('loopback') });
    const event = await database.db.webhookEvent.create({ data: { id: crypto.randomUUID(), workspaceId: me.workspace.id, type: 'ping', data: {} } });
    const delivery = await database.db.webhookDelivery.create({ data: { id: crypto.randomUUID(), eventId: event.id, endpointId: row.id, status: 'exhausted' } });
    const again = await me.call(`/v1/webhooks/${row.id}/deliveries/${delivery.id}/redeliver`, { method: 'POST' });
    expect(again.status).toBe(409);
    expect((await json(again)).code).toBe('wrong_server');
  });
});

describe('GET /v1/webhooks', () => {
  it('lists the endpoints newest first, ties broken by id', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await me.created()).id);
    const listed = async () => (await json(await me.call('/v1/webhooks'))).endpoints.map((e: { id: string }) => e.id);
    expect(await listed()).toEqual([...ids].reverse());
    await database.db.webhookEndpoint.updateMany({ where: { id: { in: ids } }, data: { createdAt: new Date('2030-01-01T00:00:00Z') } });
    expect(await listed()).toEqual([...ids].sort().reverse());
  });

  it('takes limit (1 to 100, default 20) and cursor, as every list does', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.unshift((await me.created()).id);
    const first = await json(await me.call('/v1/webhooks?limit=2'));
    expect(first.endpoints.map((e: { id: string }) => e.id)).toEqual(ids.slice(0, 2));
    const second = await json(await me.call(`/v1/webhooks?limit=2&cursor=${first.nextCursor}`));
    expect(second.endpoints.map((e: { id: string }) => e.id)).toEqual(ids.slice(2));
    expect(second).not.toHaveProperty('nextCursor');
    expect(await json(await me.call('/v1/webhooks'))).not.toHaveProperty('nextCursor');
    for (const query of ['limit=0', 'limit=101', 'limit=abc', 'cursor=not-a-cursor']) {
      expect((await me.call(`/v1/webhooks?${query}`)).status, query).toBe(400);
    }
  });
});

describe('GET, PATCH and DELETE /v1/webhooks/{id}', () => {
  it('changes the url, description and events; switching off records why; re-enabling resets the failure count', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    const endpoint = await me.created();
    const url = hookUrl();
    const patched = await json(await me.call(`/v1/webhooks/${endpoint.id}`, { method: 'PATCH', json: { url, description: null, events: ['production.delivered'] } }));
    expect(patched.endpoint).toMatchObject({ url, description: null, events: ['production.delivered'], enabled: true });

    const off = await json(await me.call(`/v1/webhooks/${endpoint.id}`, { method: 'PATCH', json: { enabled: false } }));
    expect(off.endpoint).toMatchObject({ enabled: false, disabledReason: 'Switched off through the API.' });
    await database.db.webhookEndpoint.update({ where: { id: endpoint.id }, data: { consecutiveFailures: 12, failingSince: new Date(0) } });
    const on = await json(await me.call(`/v1/webhooks/${endpoint.id}`, { method: 'PATCH', json: { enabled: true } }));
    expect(on.endpoint).toMatchObject({ enabled: true, disabledReason: null, consecutiveFailures: 0 });
  });

  it('validates the PATCH body (400)', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    const endpoint = await me.created();
    for (const body of [{ url: 'nope' }, { events: [] }, { enabled: 'yes' }, { description: 'x'.repeat(201) }, { description: 'nul\0' }]) {
      expect((await me.call(`/v1/webhooks/${endpoint.id}`, { method: 'PATCH', json: body })).status).toBe(400);
    }
  });

  it('deletes (204); the endpoint is then 404 everywhere', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    const endpoint = await me.created();
    const res = await me.call(`/v1/webhooks/${endpoint.id}`, { method: 'DELETE' });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    for (const [method, path] of [['GET', ''], ['PATCH', ''], ['DELETE', ''], ['POST', '/test'], ['POST', '/roll-secret'], ['GET', '/deliveries']] as const) {
      const r = await me.call(`/v1/webhooks/${endpoint.id}${path}`, { method, ...(method === 'PATCH' ? { json: {} } : {}) });
      expect(r.status, `${method} ${path}`).toBe(404);
    }
    expect((await json(await me.call('/v1/webhooks'))).endpoints).toEqual([]);
  });

  it('is 404 for an endpoint of a workspace the key cannot see, and for an unknown id', async ({ stack, database }) => {
    const owner = await caller(stack, database.db);
    const endpoint = await owner.created();
    const stranger = await caller(stack, database.db);
    for (const [method, path] of [['GET', ''], ['PATCH', ''], ['DELETE', ''], ['POST', '/test'], ['POST', '/roll-secret'], ['GET', '/deliveries']] as const) {
      const r = await stranger.call(`/v1/webhooks/${endpoint.id}${path}`, { method, ...(method === 'PATCH' ? { json: {} } : {}) });
      expect(r.status, `${method} ${path}`).toBe(404);
      expect((await json(r)).code).toBe('not_found');
    }
    expect((await owner.call(`/v1/webhooks/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await owner.call('/v1/webhooks/not-a-uuid')).status).toBe(400);
  });

  it('lets a viewer read, and answers 403 forbidden to every write', async ({ stack, database }) => {
    const owner = await caller(stack, database.db);
    const endpoint = await owner.created();
    const { account } = await createAccount(database.db, { email: `viewer-${Date.now()}@example.test` });
    await setMember(database.db, { workspaceId: owner.workspace.id, accountId: account.id, role: 'viewer' });
    const { apiKey } = await createApiKey(database.db, { accountId: account.id, name: 'viewer', scopes: ['productions'] });
    const call = (path: string, init: { method?: string; json?: unknown } = {}) => stack.app.request(path, withKey(apiKey, init));
    const ws = `workspaceId=${owner.workspace.id}`;
    expect((await call(`/v1/webhooks?${ws}`)).status).toBe(200);
    expect((await call(`/v1/webhooks/${endpoint.id}`)).status).toBe(200);
    expect((await call(`/v1/webhooks/${endpoint.id}/deliveries`)).status).toBe(200);
    const writes = [
      call('/v1/webhooks', { json: { url: hookUrl(), workspaceId: owner.workspace.id } }),
      call(`/v1/webhooks/${endpoint.id}`, { method: 'PATCH', json: { description: 'mine now' } }),
      call(`/v1/webhooks/${endpoint.id}`, { method: 'DELETE' }),
      call(`/v1/webhooks/${endpoint.id}/roll-secret`, { method: 'POST' }),
      call(`/v1/webhooks/${endpoint.id}/test`, { method: 'POST' }),
    ];
    for (const res of await Promise.all(writes)) {
      expect(res.status).toBe(403);
      expect((await json(res)).code).toBe('forbidden');
    }
  });

  it('needs a key with the productions scope', async ({ stack, database }) => {
    expect((await stack.app.request('/v1/webhooks')).status).toBe(401);
    const { apiKey } = await seedAccount(database.db, { scopes: ['renders'] });
    const res = await stack.app.request('/v1/webhooks', withKey(apiKey));
    expect(res.status).toBe(403);
    expect((await json(res)).code).toBe('api_key_missing_scope');
  });
});

describe('POST /v1/webhooks/{id}/test, deliveries and redeliver', () => {
  it('queues a signed ping (202), delivered at once; the deliveries list shows it', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    const endpoint = await me.created();
    const res = await me.call(`/v1/webhooks/${endpoint.id}/test`, { method: 'POST' });
    expect(res.status).toBe(202);
    const { delivery } = await json(res);
    expect(WebhookDelivery.parse(delivery)).toEqual(delivery);
    expect(delivery).toMatchObject({ endpointId: endpoint.id, productionId: null, event: 'ping', status: 'pending', attempts: 0, redeliveryOf: null });

    await waitFor(() => receivedAt(endpoint.url).length === 1, { what: 'the ping' });
    const [request] = receivedAt(endpoint.url);
    expect(verifyWebhook({ payload: request!.body, header: request!.headers['service-signature'], secret: endpoint.secret }).ok).toBe(true);
    const payload = WebhookEventPayload.parse(JSON.parse(request!.body));
    expect(payload).toMatchObject({ id: delivery.eventId, type: 'ping', workspaceId: me.workspace.id, data: { endpointId: endpoint.id, message: expect.any(String) } });

    const listed = await waitFor(async () => {
      const { deliveries } = await json(await me.call(`/v1/webhooks/${endpoint.id}/deliveries`));
      return deliveries[0]?.status === 'succeeded' ? deliveries : undefined;
    });
    expect(listed[0]).toMatchObject({ id: delivery.id, attempts: 1, lastResponseStatus: 200, lastResponseBody: 'ok', deliveredAt: expect.any(String) });
    const read = await json(await me.call(`/v1/webhooks/${endpoint.id}`));
    expect(read.endpoint.lastSuccessAt).toEqual(expect.any(String));
  });

  it('lists deliveries newest first, limit 1 to 100 (default 20), with a cursor', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    const endpoint = await me.created();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await json(await me.call(`/v1/webhooks/${endpoint.id}/test`, { method: 'POST' }))).delivery.id);
    const all = await json(await me.call(`/v1/webhooks/${endpoint.id}/deliveries`));
    expect(all.deliveries.map((d: { id: string }) => d.id)).toEqual([...ids].reverse());
    const first = await json(await me.call(`/v1/webhooks/${endpoint.id}/deliveries?limit=2`));
    expect(first.deliveries.map((d: { id: string }) => d.id)).toEqual([ids[2], ids[1]]);
    const next = await json(await me.call(`/v1/webhooks/${endpoint.id}/deliveries?limit=2&cursor=${first.nextCursor}`));
    expect(next.deliveries.map((d: { id: string }) => d.id)).toEqual([ids[0]]);
    expect(next).not.toHaveProperty('nextCursor');
    for (const limit of ['0', '101', 'x']) expect((await me.call(`/v1/webhooks/${endpoint.id}/deliveries?limit=${limit}`)).status).toBe(400);
    // Not base64, an id of 36 hyphens, dates PostgreSQL cannot hold (it has no year 0), a date written another way.
    const cursors = [
      'not-a-cursor', `2026-01-01T00:00:00.000Z|${'-'.repeat(36)}`, `-271821-04-20T00:00:00.000Z|${crypto.randomUUID()}`,
      `0000-01-01T00:00:00.000Z|${crypto.randomUUID()}`, `2026-01-01|${crypto.randomUUID()}`,
    ];
    for (const cursor of cursors) {
      const forged = await me.call(`/v1/webhooks/${endpoint.id}/deliveries?cursor=${Buffer.from(cursor).toString('base64url')}`);
      expect(forged.status).toBe(400);
      expect(await json(forged)).toEqual({
        error: 'The cursor is not one this list gave.',
        issues: [{ path: 'cursor', message: 'The cursor is not one this list gave.' }],
      });
    }
  });

  it('redelivers a copy of the event with a new id and redeliveryOf the original (202)', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    const endpoint = await me.created();
    const { delivery } = await json(await me.call(`/v1/webhooks/${endpoint.id}/test`, { method: 'POST' }));
    await waitFor(() => receivedAt(endpoint.url).length === 1);
    const res = await me.call(`/v1/webhooks/${endpoint.id}/deliveries/${delivery.id}/redeliver`, { method: 'POST' });
    expect(res.status).toBe(202);
    const copy = (await json(res)).delivery;
    expect(copy).toMatchObject({ endpointId: endpoint.id, event: 'ping', status: 'pending', redeliveryOf: delivery.eventId });
    expect(copy.id).not.toBe(delivery.id);
    expect(copy.eventId).not.toBe(delivery.eventId);
    await waitFor(() => receivedAt(endpoint.url).length === 2);
    const [original, again] = receivedAt(endpoint.url).map((r) => JSON.parse(r.body));
    expect(again).toEqual({ ...original, id: copy.eventId, redeliveryOf: delivery.eventId, createdAt: expect.any(String) });
    expect(receivedAt(endpoint.url)[1]!.headers['service-event-id']).toBe(copy.eventId);

    // Another endpoint's delivery is not found here.
    const other = await me.created();
    expect((await me.call(`/v1/webhooks/${other.id}/deliveries/${delivery.id}/redeliver`, { method: 'POST' })).status).toBe(404);
    expect((await me.call(`/v1/webhooks/${endpoint.id}/deliveries/${crypto.randomUUID()}/redeliver`, { method: 'POST' })).status).toBe(404);
  });

  it('answers 409 endpoint_disabled to test and redeliver on a switched-off endpoint', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    const endpoint = await me.created();
    const { delivery } = await json(await me.call(`/v1/webhooks/${endpoint.id}/test`, { method: 'POST' }));
    await me.call(`/v1/webhooks/${endpoint.id}`, { method: 'PATCH', json: { enabled: false } });
    for (const path of ['/test', `/deliveries/${delivery.id}/redeliver`]) {
      const res = await me.call(`/v1/webhooks/${endpoint.id}${path}`, { method: 'POST' });
      expect(res.status).toBe(409);
      expect((await json(res)).code).toBe('endpoint_disabled');
    }
  });

  it('records a failing endpoint\'s attempts, visible on the endpoint and its deliveries', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    const endpoint = await me.created();
    answers.set(new URL(endpoint.url).pathname, () => ({ status: 502, body: 'bad gateway' }));
    const { delivery } = await json(await me.call(`/v1/webhooks/${endpoint.id}/test`, { method: 'POST' }));
    const done = await waitFor(async () => {
      const { deliveries } = await json(await me.call(`/v1/webhooks/${endpoint.id}/deliveries`));
      return deliveries[0]?.status === 'exhausted' ? deliveries[0] : undefined;
    });
    expect(done).toMatchObject({ id: delivery.id, attempts: 3, lastResponseStatus: 502, lastResponseBody: 'bad gateway', lastError: 'The endpoint answered 502.', nextAttemptAt: null });
    const read = await json(await me.call(`/v1/webhooks/${endpoint.id}`));
    expect(read.endpoint).toMatchObject({ consecutiveFailures: 3, lastSuccessAt: null, lastAttemptAt: expect.any(String) });
  });
});

describe('when a delivery cannot be started (Temporal unavailable)', () => {
  unqueued('test and redeliver still answer 202: the delivery is recorded, and the outbox sweep starts it', async ({ cannotQueue, database }) => {
    const me = await caller(cannotQueue, database.db);
    const endpoint = await me.created();
    const event = await database.db.webhookEvent.create({ data: { id: crypto.randomUUID(), workspaceId: me.workspace.id, type: 'ping', data: {} } });
    const delivery = await database.db.webhookDelivery.create({ data: { id: crypto.randomUUID(), eventId: event.id, endpointId: endpoint.id, status: 'exhausted' } });
    const queued: string[] = [];
    for (const path of ['/test', `/deliveries/${delivery.id}/redeliver`]) {
      const res = await me.call(`/v1/webhooks/${endpoint.id}${path}`, { method: 'POST' });
      expect(res.status, path).toBe(202);
      const body = (await json(res)).delivery as WebhookDelivery;
      expect(body).toMatchObject({ status: 'pending', attempts: 0 });
      queued.push(body.id);
    }
    // Never attempted: exactly what the sweep starts once its interval has passed.
    const swept = (await unattemptedDeliveries(database.db, new Date(Date.now() + 60_000))).map((delivery) => delivery.id);
    expect(swept).toEqual(expect.arrayContaining(queued));
  });
});

describe('POST /v1/webhooks/{id}/roll-secret', () => {
  it('answers 200 { endpoint } with a new secret; both secrets sign (two v1) for 24 hours', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    const endpoint = await me.created();
    const before = Date.now();
    const res = await me.call(`/v1/webhooks/${endpoint.id}/roll-secret`, { method: 'POST' });
    expect(res.status).toBe(200);
    const rolled = (await json(res)).endpoint;
    expect(WebhookEndpointWithSecret.parse(rolled)).toEqual(rolled);
    expect(rolled.secret).not.toBe(endpoint.secret);
    const expires = Date.parse(rolled.previousSecretExpiresAt);
    expect(expires - before).toBeGreaterThanOrEqual(24 * 3600_000 - 1000);
    expect(expires - before).toBeLessThanOrEqual(24 * 3600_000 + 5000);

    await me.call(`/v1/webhooks/${endpoint.id}/test`, { method: 'POST' });
    await waitFor(() => receivedAt(endpoint.url).length === 1);
    const [request] = receivedAt(endpoint.url);
    const header = request!.headers['service-signature'] as string;
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    for (const secret of [endpoint.secret, rolled.secret]) expect(verifyWebhook({ payload: request!.body, header, secret }).ok).toBe(true);
  });
});

describe('when webhooks are switched off on the server', () => {
  off('every webhook route answers 503 disabled', async ({ switchedOff, database }) => {
    const me = await caller(switchedOff, database.db);
    const id = crypto.randomUUID();
    const calls: [string, string, unknown?][] = [
      ['GET', '/v1/webhooks'], ['POST', '/v1/webhooks', { url: 'https://hooks.example.com/' }], ['GET', `/v1/webhooks/${id}`],
      ['PATCH', `/v1/webhooks/${id}`, {}], ['DELETE', `/v1/webhooks/${id}`], ['POST', `/v1/webhooks/${id}/roll-secret`],
      ['POST', `/v1/webhooks/${id}/test`], ['GET', `/v1/webhooks/${id}/deliveries`], ['POST', `/v1/webhooks/${id}/deliveries/${id}/redeliver`],
    ];
    for (const [method, path, body] of calls) {
      const res = await me.call(path, { method, ...(body !== undefined ? { json: body } : {}) });
      expect(res.status, `${method} ${path}`).toBe(503);
      expect(await json(res)).toEqual({ error: 'Webhooks are switched off on this server.', code: 'disabled' });
    }
    // Whatever the body: the switch is checked before it is read.
    const raw = (contentType: string, body: string) =>
      switchedOff.app.request('/v1/webhooks', { method: 'POST', headers: { authorization: `Bearer ${me.apiKey}`, 'content-type': contentType }, body });
    for (const res of [await raw('text/plain', 'hello'), await raw('application/json', '{"url": "https://hooks.example.com/\\u0000"}')]) {
      expect(res.status).toBe(503);
      expect((await json(res)).code).toBe('disabled');
    }
  });
});

describe('the published interface', () => {
  it('documents every webhook route from the zod schemas', async ({ stack }) => {
    const doc = await json(await stack.app.request('/v1/openapi.json'));
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining([
      '/v1/webhooks', '/v1/webhooks/{id}', '/v1/webhooks/{id}/roll-secret', '/v1/webhooks/{id}/test',
      '/v1/webhooks/{id}/deliveries', '/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver',
    ]));
    expect(Object.keys(doc.paths['/v1/webhooks/{id}'])).toEqual(expect.arrayContaining(['get', 'patch', 'delete']));
    expect(doc.components.schemas.WebhookEndpoint.properties.description).toMatchObject({ maxLength: 200 });
    expect(doc.components.schemas.CreateWebhookBody.properties.url).toMatchObject({ maxLength: 2000 });
    expect(doc.components.schemas).toHaveProperty('WebhookDelivery');
    expect(doc.components.schemas).toHaveProperty('WebhookEventPayload');
    expect(doc.paths['/v1/webhooks'].get.responses['200'].description).toBe('Endpoints, newest first (ties broken by id)');
    for (const path of ['/v1/webhooks/{id}/test', '/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver']) {
      expect(doc.paths[path].post.responses['202'].description).toContain('started by the outbox sweep');
    }
  });
});
