import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { describe, expect } from 'vitest';
import { seedAccount, test } from '@vp/testing';
import { createDb } from '@vp/db';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '@vp/contracts';
import { createTestGateway, withKey, json } from '../testing/gateway.ts';

const it = test.extend('gateway', { scope: 'file' }, async ({ database }, { onCleanup }) => {
  const gateway = await createTestGateway(database, { env: { BODY_LIMIT_BYTES: '4096', BRIEF_BODY_LIMIT_BYTES: '16384' } });
  onCleanup(gateway.close);
  const { apiKey } = await seedAccount(database.db, { credits: 100 });
  return { ...gateway, apiKey };
});

/** The deployment's body limits (a brief's is 32 MiB): room for a body nested a million deep. */
const roomy = test.extend('gateway', { scope: 'file' }, async ({ database }, { onCleanup }) => {
  const gateway = await createTestGateway(database);
  onCleanup(gateway.close);
  const { apiKey } = await seedAccount(database.db, { credits: 100 });
  return { ...gateway, apiKey };
});

const ERROR_SHAPE = { error: expect.any(String), code: expect.any(String) };

describe('every non-2xx body is { error, code?, issues? } (spec: Errors)', () => {
  it('malformed JSON is a 400 whose one issue is the whole body', async ({ gateway }) => {
    const res = await gateway.app.request('/v1/productions', {
      method: 'POST', headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' }, body: '{"brief": {',
    });
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({ error: 'The body is not valid JSON.', issues: [{ path: '', message: 'Not valid JSON.' }] });
  });

  it('a body that is not JSON is a 415', async ({ gateway }) => {
    const res = await gateway.app.request('/v1/productions', {
      method: 'POST', headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'text/plain' }, body: 'intent=hello',
    });
    expect(res.status).toBe(415);
    expect(await json(res)).toEqual({ error: expect.stringContaining('application/json'), code: 'unsupported_media_type' });
  });

  it('an empty body is no body, whatever its Content-Type says', async ({ gateway }) => {
    const res = await gateway.app.request(`/v1/productions/${crypto.randomUUID()}/greenlight`, {
      method: 'POST', headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json', 'content-length': '0' },
    });
    expect(res.status).toBe(404);
  });

  it('text holding NUL is a 400 naming the field, and nothing is created', async ({ gateway, database }) => {
    const before = await database.db.production.count();
    for (const [body, path] of [
      [{ brief: { intent: 'Launch\u0000day' } }, 'brief.intent'],
      [{ brief: { intent: 'Launch', code: [{ path: 'bin/tool', source: 'ELF\u0000\u0001' }] } }, 'brief.code.0.source'],
      // A key the schema does not know is dropped, never stored: only the field is refused.
      [{ brief: { intent: 'Launch', context: 'a\u0000' }, 'x\u0000': 1 }, 'brief.context'],
    ] as const) {
      const res = await gateway.app.request('/v1/productions', withKey(gateway.apiKey, { json: body }));
      expect(res.status).toBe(400);
      expect(await json(res)).toEqual({ error: expect.stringContaining('NUL'), issues: [{ path, message: expect.stringContaining('NUL') }] });
    }
    expect(await database.db.production.count()).toBe(before);
  });

  roomy('a body nested a million deep is a 400, as any body of the wrong shape, NUL deep inside one or not', async ({ gateway }) => {
    const depth = 1_000_000;
    const post = (body: string) => gateway.app.request('/v1/productions', {
      method: 'POST', headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' }, body,
    });
    const deep = await post(`{"brief":${'['.repeat(depth)}${']'.repeat(depth)}}`);
    expect(deep.status).toBe(400);
    expect(await json(deep)).toMatchObject({ issues: [expect.objectContaining({ path: 'brief' })] });
    const nul = await post(`{"brief":${'{"a":'.repeat(depth)}"x\\u0000"${'}'.repeat(depth)}}`);
    expect(nul.status).toBe(400);
    expect(await json(nul)).toMatchObject({ issues: [expect.objectContaining({ path: 'brief.intent' })] });
  });

  roomy('a request refused before its body was read closes its connection: the requests after it are not lost with it', async ({ gateway }) => {
    const server = serve({ fetch: gateway.app.fetch, hostname: '127.0.0.1', port: 0 });
    await once(server, 'listening');
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/productions`;
      const post = (body: string, type: string) => fetch(url, { method: 'POST', headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': type }, body });
      for (let round = 0; round < 3; round++) {
        const refused = await post('x'.repeat(3_000_000), 'text/plain');
        expect(refused.status).toBe(415);
        expect(refused.headers.get('connection')).toBe('close');
        // The client's next calls all get their answers: none is sent on the closing connection.
        for (let next = 0; next < 3; next++) expect((await post('{"brief":{}}', 'application/json')).status).toBe(400);
      }
      // A body that was read leaves the connection open for the next request.
      expect((await post('{"brief":{}}', 'application/json')).headers.get('connection')).toBe('keep-alive');
    } finally {
      if ('closeAllConnections' in server) server.closeAllConnections();
      server.close();
    }
  });

  it('an oversized body is a 413, refused before it is read to the end; a brief has a limit of its own', async ({ gateway }) => {
    const comment = await gateway.app.request(`/v1/productions/${crypto.randomUUID()}/comments`, withKey(gateway.apiKey, { json: { comment: 'x'.repeat(5000) } }));
    expect(comment.status).toBe(413);
    expect(await json(comment)).toEqual({ error: 'The body is larger than 4096 bytes.', code: 'payload_too_large' });
    // The rest of it may still be on its way: the connection is not kept for another request.
    expect(comment.headers.get('connection')).toBe('close');

    const brief = (intent: string) => gateway.app.request('/v1/productions', withKey(gateway.apiKey, { json: { brief: { intent, context: 'c'.repeat(8000) } } }));
    expect((await brief('Over the limit of other bodies, under a brief\'s')).status).toBe(201);
    const large = await brief('x'.repeat(10_000));
    expect(large.status).toBe(413);
    expect(await json(large)).toEqual({ error: 'The body is larger than 16384 bytes.', code: 'payload_too_large' });
  });

  it('an unknown route is a 404 and a wrong method a 405 with Allow', async ({ gateway }) => {
    const missing = await gateway.app.request('/nowhere');
    expect(missing.status).toBe(404);
    expect(await json(missing)).toEqual(ERROR_SHAPE);
    const wrong = await gateway.app.request('/v1/productions', withKey(gateway.apiKey, { method: 'DELETE' }));
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toContain('POST');
    expect(await json(wrong)).toEqual({ error: expect.any(String), code: 'method_not_allowed' });
  });

  it('a failed validation is a 400 listing each problem with its path and message', async ({ gateway }) => {
    const res = await gateway.app.request('/v1/productions', withKey(gateway.apiKey, {
      json: { brief: { intent: '', format: { durationMs: 999, aspect: '5:4' }, media: [{ id: 'a', kind: 'gif' }] } },
    }));
    expect(res.status).toBe(400);
    const body = await json(res);
    // The spec's 400 has no code.
    expect(body).toEqual({ error: expect.any(String), issues: expect.any(Array) });
    const paths = body.issues.map((i: { path: string }) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['brief.intent', 'brief.format.durationMs', 'brief.format.aspect', 'brief.media.0.kind', 'brief.media.0.url']));
    for (const issue of body.issues) expect(issue).toEqual({ path: expect.any(String), message: expect.any(String) });
    const query = await gateway.app.request('/v1/productions?limit=0&stage=nope', withKey(gateway.apiKey));
    expect(query.status).toBe(400);
    expect((await json(query)).issues.map((i: { path: string }) => i.path).sort()).toEqual(['limit', 'stage']);
  });

  it('an unexpected failure is a 500 without a stack trace, logged with the request id', async ({ database }) => {
    // A gateway whose database has gone away.
    const broken = createDb(database.url.replace(/\/[^/]+$/, '/no_such_database'), { max: 1 });
    const gateway = await createTestGateway({ url: database.url, db: broken });
    try {
      const res = await gateway.app.request('/v1/productions', withKey('svc_live_' + 'a'.repeat(43)));
      expect(res.status).toBe(500);
      const requestId = res.headers.get('x-request-id');
      const body = await json(res);
      expect(body).toEqual({ error: `Something went wrong on our side. Request id: ${requestId}.`, code: 'internal' });
      expect(JSON.stringify(body)).not.toMatch(/at .*\.ts|no_such_database/);
      const logged = gateway.logs.find((line) => line.msg === 'unhandled error');
      expect(logged).toMatchObject({ requestId, level: 50 });
      expect(logged?.err).toBeDefined();
    } finally {
      await gateway.close();
      await broken.$disconnect();
    }
  });
  it('a database that cannot be reached is a 503 with Retry-After: try again, nothing broke', async ({ database }) => {
    // A gateway whose database refuses connections (a restart, a failover).
    const away = createDb(database.url.replace(/@[^/]+\//, '@127.0.0.1:1/'), { max: 1 });
    const gateway = await createTestGateway({ url: database.url, db: away });
    try {
      const res = await gateway.app.request('/v1/productions', withKey('svc_live_' + 'a'.repeat(43)));
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe(String(UNAVAILABLE_RETRY_AFTER_SECONDS));
      expect(await json(res)).toEqual({ error: 'The service is busy; try again in a moment.' });
      expect(gateway.logs.find((line) => line.msg === 'the database could not serve the request')).toMatchObject({ level: 40, requestId: res.headers.get('x-request-id') });
    } finally {
      await gateway.close();
      await away.$disconnect();
    }
  });
});

describe('structured logs', () => {
  it('carry the request id on every line of a request, and echo it as X-Request-Id', async ({ gateway }) => {
    const res = await gateway.app.request('/v1/productions', withKey(gateway.apiKey, { headers: { 'x-request-id': 'req-abcdef12' } }));
    expect(res.headers.get('x-request-id')).toBe('req-abcdef12');
    const lines = gateway.logs.filter((line) => line.requestId === 'req-abcdef12');
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'request', method: 'GET', path: '/v1/productions', status: 200 }));
    const generated = await gateway.app.request('/healthz');
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

