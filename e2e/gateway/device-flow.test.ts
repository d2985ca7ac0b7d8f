import { describe, expect } from 'vitest';
import { answerKeyRequest, keyRequestBox, listApiKeys, requestKey, type KeyRequestDeps } from '@vp/accounts';
import { SCOPES, workflowIds, type Caller } from '@vp/contracts';
import type { Db } from '@vp/db';
import { keyRequestWorkflows, keyRequestWorkflowSettings } from '@vp/temporal-client';
import { seedAccount, test, waitFor } from '@vp/testing';
import { createRateLimiter } from '@vp/db';
import { createTestGateway, json, withKey } from '@vp/gateway/testing';
import { createTestStack } from '../stack.ts';
import { historyText } from './history-text.ts';

type Stack = Awaited<ReturnType<typeof createTestStack>>;
type Env = Stack & { db: Db };

const it = test.extend('env', { scope: 'file' }, async ({ database }, { onCleanup }): Promise<Env> => {
  const stack = await createTestStack(database);
  onCleanup(stack.close);
  return { ...stack, db: database.db };
});

const MINUTE = 60_000;

/** The device flow's domain over the stack, with the timers a test sets (its workflow takes them at its start). */
function flow(env: Env, timers: { pendingMs?: number; claimWindowMs?: number; revokeGraceMs?: number } = {}): KeyRequestDeps {
  const settings = { ...keyRequestWorkflowSettings(env.config), pendingMs: MINUTE, claimWindowMs: MINUTE, revokeGraceMs: MINUTE, ...timers };
  return {
    db: env.db, appUrl: env.config.appUrl, pendingMs: settings.pendingMs, box: keyRequestBox(env.config.secrets),
    workflows: keyRequestWorkflows(env.temporal.client, settings),
  };
}

const poll = async (env: Env, body: unknown) => {
  const res = await env.app.request('/v1/keys/poll', withKey(null, { json: body }));
  return { status: res.status, body: await json(res) };
};

async function person(env: Env): Promise<Caller & { email: string }> {
  const { account } = await seedAccount(env.db);
  return { accountId: account.id, actor: `user:${account.id}`, via: 'app', email: account.email };
}

const statusOf = async (env: Env, deviceCode: string) => (await poll(env, { deviceCode })).body.status;
const keyWorks = async (env: Env, apiKey: string) => (await env.app.request('/v1/productions', withKey(apiKey))).status === 200;

describe('POST /v1/keys/request (spec: Key request (device flow))', () => {
  it('answers 201 with a device code, a user code XXXX-XXXX, the approval page, 600 s and 3 s; only the device code\'s hash is kept', async ({ env }) => {
    const res = await env.app.request('/v1/keys/request', withKey(null, { json: { name: 'vp CLI on build-box' } }));
    expect(res.status).toBe(201);
    const body = await json(res);
    expect(body).toEqual({
      deviceCode: expect.stringMatching(/^[A-Za-z0-9_-]{43,}$/), userCode: expect.stringMatching(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/),
      approvalUrl: `${env.config.appUrl}/keys/approve?code=${body.userCode}`, expiresInSeconds: 600, pollIntervalSeconds: 3,
    });
    const row = await env.db.keyRequest.findFirstOrThrow({ where: { userCode: body.userCode.replace('-', '') } });
    expect(row).toMatchObject({ name: 'vp CLI on build-box', status: 'pending', keyId: null, keySealed: null });
    expect(JSON.stringify(row)).not.toContain(body.deviceCode);
    expect(await statusOf(env, body.deviceCode)).toBe('pending');
  });

  it('refuses a bad body with 400 and writes nothing: no name, an empty one, 101 characters, not JSON', async ({ env }) => {
    const before = await env.db.keyRequest.count();
    for (const body of [{}, { name: '' }, { name: '   ' }, { name: 'x'.repeat(101) }, { name: 42 }]) {
      const res = await env.app.request('/v1/keys/request', withKey(null, { json: body }));
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await json(res)).toMatchObject({ error: expect.any(String), issues: expect.any(Array) });
    }
    const notJson = await env.app.request('/v1/keys/request', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":' });
    expect(notJson.status).toBe(400);
    expect(await env.db.keyRequest.count()).toBe(before);
  });
});

describe('POST /v1/keys/poll', () => {
  it('answers 404 for an unknown device code and 400 for a bad body', async ({ env }) => {
    expect(await poll(env, { deviceCode: 'no-such-code' })).toEqual({ status: 404, body: { error: expect.any(String), code: 'not_found' } });
    expect((await poll(env, {})).status).toBe(400);
    expect((await poll(env, { deviceCode: 'x', revokeClaimed: 'yes' })).status).toBe(400);
  });
});

describe('the OpenAPI document', () => {
  it('describes both routes as public, with their bodies and answers', async ({ env }) => {
    const doc = await json(await env.app.request('/v1/openapi.json'));
    for (const [path, statuses] of [['/v1/keys/request', ['201', '400', '429', '503']], ['/v1/keys/poll', ['200', '400', '404', '429', '503']]] as const) {
      const operation = doc.paths[path].post;
      expect(operation.security, path).toEqual([]);
      expect(Object.keys(operation.responses), path).toEqual(expect.arrayContaining([...statuses]));
      expect(operation.requestBody.content['application/json'].schema, path).toBeTruthy();
    }
    expect(doc.components.schemas.KeyRequestStatus.enum).toEqual(['pending', 'approved', 'claimed', 'denied', 'expired']);
  });
});

describe('the /v1/keys rate limit (spec: Rate limits)', () => {
  it('answers 429 rate_limited with Retry-After past 60 requests a minute from one address, on both routes', async ({ database }) => {
    // A gateway of its own, its limiter in a minute nobody else counts in.
    const gateway = await createTestGateway(database, { env: { TRUST_PROXY: 'true' }, limiter: createRateLimiter(database.db, () => Date.UTC(2031, 0, 1, 0, 0, 30)) });
    try {
      const from = (address: string) => ({ 'x-forwarded-for': address });
      for (let i = 0; i < 60; i++) {
        const res = await gateway.app.request('/v1/keys/poll', withKey(null, { json: { deviceCode: `unknown-${i}` }, headers: from('198.51.100.7') }));
        expect(res.status).toBe(404);
      }
      for (const path of ['/v1/keys/poll', '/v1/keys/request']) {
        const res = await gateway.app.request(path, withKey(null, { json: { deviceCode: 'x', name: 'x' }, headers: from('198.51.100.7') }));
        expect(res.status).toBe(429);
        expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
        expect(await json(res)).toMatchObject({ code: 'rate_limited' });
      }
      // Another address is counted apart.
      expect((await gateway.app.request('/v1/keys/poll', withKey(null, { json: { deviceCode: 'x' }, headers: from('198.51.100.8') }))).status).toBe(404);
    } finally {
      await gateway.close();
    }
  });
});

describe('the request\'s workflow: every transition of the spec\'s table, with short timers', () => {
  it('pending → expired when nobody answers in time; an answer after that is told the code expired', async ({ env }) => {
    const deps = flow(env, { pendingMs: 1000 });
    const started = await requestKey(deps, { name: 'expiring', requestedFrom: null });
    expect(started.expiresInSeconds).toBe(1);
    const id = (await env.db.keyRequest.findFirstOrThrow({ where: { userCode: started.userCode.replace('-', '') } })).id;
    await waitFor(async () => (await env.db.keyRequest.findUniqueOrThrow({ where: { id } })).status === 'expired', { what: 'the request to expire' });
    expect(await statusOf(env, started.deviceCode)).toBe('expired');
    await expect(answerKeyRequest(deps, await person(env), { code: started.userCode, answer: 'approve' }))
      .rejects.toMatchObject({ code: 'expired', message: 'This code has expired. Ask the tool for a new one.' });
    expect(await env.db.keyRequest.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'expired', liveUserCode: null, keyId: null });
  });

  it('pending → denied (terminal): polls say denied, and a second answer is told it was refused', async ({ env }) => {
    const deps = flow(env);
    const started = await requestKey(deps, { name: 'refused', requestedFrom: null });
    const caller = await person(env);
    expect(await answerKeyRequest(deps, caller, { code: started.userCode.toLowerCase(), answer: 'deny' })).toBe('denied');
    expect(await statusOf(env, started.deviceCode)).toBe('denied');
    await expect(answerKeyRequest(deps, caller, { code: started.userCode, answer: 'approve' })).rejects.toMatchObject({ code: 'stale', message: 'This request was already refused.' });
    expect(await listApiKeys(env.db, caller.accountId)).toHaveLength(1);
  });

  it('pending → approved → claimed: the first poll gets the key once (all four scopes, the account\'s, named after the request), later polls say claimed', async ({ env }) => {
    const deps = flow(env);
    const started = await requestKey(deps, { name: 'editor panel', requestedFrom: '203.0.113.9' });
    const caller = await person(env);
    // Any case, with or without the hyphen.
    expect(await answerKeyRequest(deps, caller, { code: started.userCode.replace('-', '').toLowerCase(), answer: 'approve' })).toBe('approved');
    const sealed = await env.db.keyRequest.findFirstOrThrow({ where: { userCode: started.userCode.replace('-', '') } });
    expect(sealed).toMatchObject({ status: 'approved', answeredBy: caller.accountId, keySealed: expect.stringMatching(/^v1\./) });

    const first = await poll(env, { deviceCode: started.deviceCode });
    expect(first).toEqual({ status: 200, body: { status: 'approved', apiKey: expect.stringMatching(/^svc_live_/) } });
    expect(sealed.keySealed).not.toContain(first.body.apiKey);
    expect(await poll(env, { deviceCode: started.deviceCode })).toEqual({ status: 200, body: { status: 'claimed' } });
    expect(await keyWorks(env, first.body.apiKey)).toBe(true);
    const key = (await listApiKeys(env.db, caller.accountId)).find((k) => k.id === sealed.keyId);
    expect(key).toMatchObject({ name: 'editor panel', scopes: [...SCOPES], madeBy: 'device', revokedAt: null });
    // Wiped at the claim.
    expect(await env.db.keyRequest.findUniqueOrThrow({ where: { id: sealed.id } })).toMatchObject({ status: 'claimed', keySealed: null, claimedAt: expect.any(Date) });
  });

  it('concurrent polls after approval: exactly one receives the key, the others claimed', async ({ env }) => {
    const deps = flow(env);
    const started = await requestKey(deps, { name: 'racing polls', requestedFrom: null });
    await answerKeyRequest(deps, await person(env), { code: started.userCode, answer: 'approve' });
    // A poll may be told 503 (Temporal could not take its Update, on a loaded machine): a client
    // polls again, as the SDK does. Whoever was granted the key has it; nobody gets it twice.
    const pollOnce = () => poll(env, { deviceCode: started.deviceCode });
    const answers = await Promise.all(Array.from({ length: 6 }, async () => {
      const first = await pollOnce();
      return first.status === 503 ? pollOnce() : first;
    }));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    const withKey = answers.filter((a) => a.body.apiKey);
    expect(withKey).toHaveLength(1);
    expect(withKey[0]!.body.status).toBe('approved');
    expect(answers.filter((a) => a.body.status === 'claimed')).toHaveLength(5);
  });

  it('approved and unclaimed for the claim window → expired: the key revoked, its sealed plaintext cleared', async ({ env }) => {
    const deps = flow(env, { claimWindowMs: 1000 });
    const started = await requestKey(deps, { name: 'never claimed', requestedFrom: null });
    await answerKeyRequest(deps, await person(env), { code: started.userCode, answer: 'approve' });
    const id = (await env.db.keyRequest.findFirstOrThrow({ where: { userCode: started.userCode.replace('-', '') } })).id;
    await waitFor(async () => (await env.db.keyRequest.findUniqueOrThrow({ where: { id } })).status === 'expired', { what: 'the claim window to end' });
    const row = await env.db.keyRequest.findUniqueOrThrow({ where: { id } });
    expect(row.keySealed).toBeNull();
    expect(await env.db.apiKey.findUniqueOrThrow({ where: { id: row.keyId! } })).toMatchObject({ revokedAt: expect.any(Date) });
    expect(await poll(env, { deviceCode: started.deviceCode })).toEqual({ status: 200, body: { status: 'expired' } });
  });

  it('claimed → expired on a poll with revokeClaimed: the key stops working; neither the key nor the device code is in the workflow\'s history', async ({ env }) => {
    const deps = flow(env);
    const started = await requestKey(deps, { name: 'lost its key', requestedFrom: null });
    await answerKeyRequest(deps, await person(env), { code: started.userCode, answer: 'approve' });
    const { body } = await poll(env, { deviceCode: started.deviceCode });
    expect(await keyWorks(env, body.apiKey)).toBe(true);
    expect(await poll(env, { deviceCode: started.deviceCode, revokeClaimed: true })).toEqual({ status: 200, body: { status: 'expired' } });
    expect(await keyWorks(env, body.apiKey)).toBe(false);
    expect(await statusOf(env, started.deviceCode)).toBe('expired');

    const id = (await env.db.keyRequest.findFirstOrThrow({ where: { userCode: started.userCode.replace('-', '') } })).id;
    const handle = env.temporal.client.workflow.getHandle(workflowIds.keyRequest(id));
    expect(await handle.result()).toBe('expired');
    const history = await historyText(handle, env.config.temporal.payloadKey);
    expect(history).toContain(id);
    expect(history).not.toContain(body.apiKey);
    expect(history).not.toContain(body.apiKey.slice('svc_live_'.length));
    expect(history).not.toContain(started.deviceCode);
    // Nor the gateway's log.
    expect(JSON.stringify(env.logs)).not.toContain(body.apiKey);
    expect(JSON.stringify(env.logs)).not.toContain(started.deviceCode);
  });

  it('claimed, past the grace after the claim window: revokeClaimed no longer revokes; the key stays claimed and working', async ({ env }) => {
    const deps = flow(env, { claimWindowMs: 3000, revokeGraceMs: 500 });
    const started = await requestKey(deps, { name: 'kept', requestedFrom: null });
    await answerKeyRequest(deps, await person(env), { code: started.userCode, answer: 'approve' });
    const { body } = await poll(env, { deviceCode: started.deviceCode });
    expect(body.status).toBe('approved');
    const id = (await env.db.keyRequest.findFirstOrThrow({ where: { userCode: started.userCode.replace('-', '') } })).id;
    expect(await env.temporal.client.workflow.getHandle(workflowIds.keyRequest(id)).result()).toBe('claimed');
    expect(await poll(env, { deviceCode: started.deviceCode, revokeClaimed: true })).toEqual({ status: 200, body: { status: 'claimed' } });
    expect(await keyWorks(env, body.apiKey)).toBe(true);
  });
});
