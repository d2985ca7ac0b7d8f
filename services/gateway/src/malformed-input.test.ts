import { describe, expect } from 'vitest';
import { seedAccount, test } from '@vp/testing';
import { createRateLimiter } from './rate-limit/fixed-window.ts';
import { createTestGateway, json } from './testing/gateway.ts';

/** A gateway whose rate-limit clock moves a minute at each read: no request is refused for its rate. */
const it = test.extend('gateway', { scope: 'file' }, async ({ database }, { onCleanup }) => {
  let minutes = 0;
  const limiter = createRateLimiter(database.db, () => Date.now() + ++minutes * 60_000);
  const gateway = await createTestGateway(database, { limiter });
  onCleanup(gateway.close);
  const { apiKey } = await seedAccount(database.db, { credits: 100 });
  return { ...gateway, apiKey };
});

const DEPTH = 100_000;
/** Bodies no route takes, each with the Content-Type it is sent as. */
const BODIES: [name: string, body: string, type: string][] = [
  ['malformed JSON', '{"brief": {', 'application/json'],
  ['a JSON array', '[1, 2, 3]', 'application/json'],
  ['JSON null', 'null', 'application/json'],
  ['every field of the wrong type', JSON.stringify({
    brief: 'x', url: 5, events: 'all', enabled: 'yes', comment: 7, reason: [], name: {}, deviceCode: 1, pitchVersion: 'one', workspaceId: 3,
  }), 'application/json'],
  ['nested a hundred thousand deep', `{"brief":${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}}`, 'application/json'],
  ['text holding NUL', JSON.stringify({ comment: 'a\u0000b', reason: 'a\u0000b', url: 'https://a\u0000b.example', brief: { intent: '\u0000' } }), 'application/json'],
  ['plain text', 'hello', 'text/plain'],
  ['a broken multipart form', '--x\r\nContent-Disposition: form-data; name="images"; filename="a.png"\r\n\r\nnot a png\r\n--x', 'multipart/form-data; boundary=x'],
];
const IDS = ['not-a-uuid', '00000000-0000-0000-0000-000000000000'];
/** Takes no input, and would revoke the key the other requests use. */
const SKIPPED = new Set(['DELETE /v1/keys/current']);

describe('every documented route, sent input it does not take (spec: Errors)', () => {
  it('answers a 4xx in the error shape (a page, from a page), never a 5xx', async ({ gateway }) => {
    const doc = await json(await gateway.app.request('/v1/openapi.json'));
    const answers: string[] = [];
    let sent = 0;
    for (const [template, operations] of Object.entries<Record<string, unknown>>(doc.paths)) {
      for (const method of Object.keys(operations).map((m) => m.toUpperCase())) {
        if (SKIPPED.has(`${method} ${template}`)) continue;
        for (const id of template.includes('{') ? IDS : ['']) {
          const path = template.replace(/\{[^}]+\}/g, id);
          const sends: [string, RequestInit][] = method === 'GET' || method === 'DELETE'
            ? [['an odd query', { method }]]
            : BODIES.map(([name, body, type]) => [name, { method, body, headers: { 'content-type': type } }]);
          for (const [name, init] of sends) {
            const url = method === 'GET' ? `${path}?limit=abc&cursor=%ZZ&stage=nope&workspaceId=x` : path;
            sent++;
            const res = await gateway.app.request(url, { ...init, headers: { ...init.headers as Record<string, string>, authorization: `Bearer ${gateway.apiKey}` } });
            const body: unknown = res.headers.get('content-type')?.includes('json') ? await res.json() : await res.text();
            // A page's refusal is a page; the API's, the error shape.
            const shaped = typeof (body as { error?: unknown } | null)?.error === 'string' || res.headers.get('content-type')?.startsWith('text/html');
            if (res.status >= 500 || (res.status >= 400 && !shaped) || res.status < 400) answers.push(`${method} ${path} (${name}): ${res.status} ${JSON.stringify(body).slice(0, 120)}`);
          }
        }
      }
    }
    expect(answers).toEqual([]);
    // Every route, each way (the webhook, production, link, render and key routes).
    expect(sent).toBeGreaterThan(200);
  }, 120_000);
});
