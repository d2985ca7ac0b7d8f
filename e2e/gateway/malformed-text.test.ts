import { describe, expect } from 'vitest';
import { LONE_SURROGATE_REFUSED, NOT_UTF8, NUL_REFUSED } from '@vp/contracts';
import { seedAccount, test } from '@vp/testing';
import { makeImage } from '@vp/gateway/testing/media';
import { pitchReady } from '@vp/gateway/testing/productions';
import { json, withKey } from '@vp/gateway/testing';
import { createTestStack } from '../stack.ts';

// The whole service; each request comes from an address of its own (X-Forwarded-For behind a
// trusted proxy), so that no rate limit per address is reached.
const it = test.extend('stack', { scope: 'file' }, async ({ database }, { onCleanup }) => {
  const stack = await createTestStack(database, { env: { TRUST_PROXY: 'true' } });
  onCleanup(stack.close);
  return stack;
});

/**
 * Text no person writes. In JSON a lone surrogate travels as its `\ud800` escape; a form, a
 * multipart field or a query string can only carry its bytes (CESU-8, which is not UTF-8).
 */
const MALFORMED = [
  { what: 'a lone high surrogate', text: 'x\ud800y', encoded: 'x%ED%A0%80y', message: LONE_SURROGATE_REFUSED, asBytes: NOT_UTF8 },
  { what: 'a lone low surrogate', text: 'x\udc00y', encoded: 'x%ED%B0%80y', message: LONE_SURROGATE_REFUSED, asBytes: NOT_UTF8 },
  { what: 'a reversed pair', text: 'x\udc00\ud800y', encoded: 'x%ED%B0%80%ED%A0%80y', message: LONE_SURROGATE_REFUSED, asBytes: NOT_UTF8 },
  { what: 'NUL', text: 'x\u0000y', encoded: 'x%00y', message: NUL_REFUSED, asBytes: NUL_REFUSED },
] as const;

/** Text people do write: right-to-left marks and script, combining marks, 4-byte emoji (with a ZWJ sequence), CJK. */
const VALID = 'Ship \u200F\u05E9\u05DC\u05D5\u05DD\u200F \u202Bمرحبا\u202C cafe\u0301 Z\u0351\u036B\u0343a\u0310l 😀👩🏽‍💻🇯🇵 漢字かな한국어';

let addresses = 0;
/** A request from an address of its own. */
const from = (init: RequestInit = {}): RequestInit => ({ ...init, headers: { ...init.headers as Record<string, string>, 'x-forwarded-for': `198.51.100.${++addresses % 250}` } });
const urlencoded = (body: string) => from({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });

/** The bytes `encoded` stands for. */
function bytesOf(encoded: string): Buffer {
  return Buffer.from(encoded.replace(/%([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1');
}

describe('malformed text is refused where it comes in (400 with issues), and nothing is stored or jammed', () => {
  it('in a brief, an externalId or an origin (API JSON): nothing is created', async ({ stack, database }) => {
    const { apiKey } = await seedAccount(database.db, { credits: 100 });
    const before = await database.db.production.count();
    for (const { what, text, message } of MALFORMED) {
      for (const [body, path] of [
        [{ brief: { intent: text } }, 'brief.intent'],
        [{ brief: { intent: 'Launch', context: text, media: [{ id: 'm', kind: 'image', url: 'https://example.com/a.png', name: text }] } }, 'brief.context'],
        [{ brief: { intent: 'Launch', code: [{ path: 'a.ts', source: text }] } }, 'brief.code.0.source'],
        [{ brief: { intent: 'Launch', brand: { logoUrl: `https://example.com/${text}.png` } } }, 'brief.brand.logoUrl'],
        [{ brief: { intent: 'Launch' }, externalId: text }, 'externalId'],
        [{ brief: { intent: 'Launch' }, origin: { provider: 'github', label: text } }, 'origin.label'],
      ] as const) {
        const res = await stack.app.request('/v1/productions', withKey(apiKey, { json: body }));
        expect(res.status, `${what} in ${path}`).toBe(400);
        expect((await json(res)).issues, `${what} in ${path}`).toContainEqual({ path, message });
      }
    }
    expect(await database.db.production.count()).toBe(before);
  });

  it('in a comment, a decline or a cancel reason, by API or by link (JSON): the production takes the next valid action', async ({ stack, database }) => {
    const p = await pitchReady(stack, database.db);
    for (const { what, text, message } of MALFORMED) {
      for (const [path, body, field] of [
        [`/v1/productions/${p.production.id}/comments`, { comment: text }, 'comment'],
        [`/v1/productions/${p.production.id}/decline`, { reason: text }, 'reason'],
        [`/v1/productions/${p.production.id}/cancel`, { reason: text }, 'reason'],
      ] as const) {
        const res = await p.call(path, { json: body });
        expect(res.status, `${what} in ${path}`).toBe(400);
        expect((await json(res)).issues, `${what} in ${path}`).toEqual([{ path: field, message }]);
      }
      for (const [action, body, field] of [['comments', { comment: text }, 'comment'], ['decline', { reason: text }, 'reason']] as const) {
        const res = await stack.app.request(`/production-links/${p.token}/${action}`, from({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
        expect(res.status, `${what} by link ${action}`).toBe(400);
        expect((await json(res)).issues, `${what} by link ${action}`).toEqual([{ path: field, message }]);
      }
    }
    expect(await p.stage()).toBe('pitch_ready');
    const commented = await p.call(`/v1/productions/${p.production.id}/comments`, { json: { comment: VALID } });
    expect(commented.status).toBe(200);
    const event = await database.db.productionEvent.findFirstOrThrow({ where: { productionId: p.production.id, kind: 'comment' } });
    expect((event.payload as { comment: string }).comment).toBe(VALID);
  });

  it('in a JSON body that is not UTF-8', async ({ stack, database }) => {
    const { apiKey } = await seedAccount(database.db);
    for (const { what, encoded } of MALFORMED.filter((m) => m.asBytes === NOT_UTF8)) {
      const body = Buffer.concat([Buffer.from('{"brief":{"intent":"'), bytesOf(encoded), Buffer.from('"}}')]);
      const res = await stack.app.request('/v1/productions', { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body });
      expect(res.status, what).toBe(400);
      expect(await json(res), what).toEqual({ error: 'The body is not UTF-8 text.', issues: [{ path: '', message: 'The body is not UTF-8 text.' }] });
    }
  });

  it('in a greenlight link page\'s forms: the page says so (400), and the pitch still awaits an answer', async ({ stack, database }) => {
    const p = await pitchReady(stack, database.db);
    for (const { what, encoded, asBytes } of MALFORMED) {
      for (const [action, field] of [['comment', 'comment'], ['decline', 'reason']] as const) {
        const res = await stack.app.request(`/go/${p.token}/${action}`, urlencoded(`${field}=${encoded}`));
        expect(res.status, `${what} in ${field}`).toBe(400);
        expect(res.headers.get('content-type'), `${what} in ${field}`).toMatch(/^text\/html/);
        const page = await res.text();
        expect(page, `${what} in ${field}`).toContain(asBytes === NUL_REFUSED ? NUL_REFUSED : 'The form could not be read');
      }
    }
    expect(await p.stage()).toBe('pitch_ready');
    const commented = await stack.app.request(`/go/${p.token}/comment`, urlencoded(new URLSearchParams({ comment: VALID }).toString()));
    expect(commented.status).toBe(303);
    const event = await database.db.productionEvent.findFirstOrThrow({ where: { productionId: p.production.id, kind: 'comment' } });
    expect((event.payload as { comment: string }).comment).toBe(VALID);
  });

  it('in a text field of the renders form (multipart): nothing is stored', async ({ stack, database }) => {
    const { apiKey } = await seedAccount(database.db);
    const boundary = 'b0undary';
    const field = (name: string, value: Buffer) =>
      Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`), value, Buffer.from('\r\n')]);
    for (const { what, encoded, asBytes } of MALFORMED) {
      const body = Buffer.concat([field('appName', bytesOf(encoded)), field('accent', bytesOf(encoded)), Buffer.from(`--${boundary}--\r\n`)]);
      const sent = await stack.app.request('/v1/renders', { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': `multipart/form-data; boundary=${boundary}` }, body });
      expect(sent.status, what).toBe(400);
      const { issues } = await json(sent);
      expect(issues, what).toContainEqual({ path: 'appName', message: asBytes });
      expect(issues, what).toContainEqual({ path: 'accent', message: asBytes });
    }
    expect(await database.db.render.count()).toBe(0);
  });

  it('in a query string: its parameter is named', async ({ stack, database }) => {
    const { apiKey } = await seedAccount(database.db);
    for (const { what, encoded, asBytes } of MALFORMED) {
      for (const [path, name] of [['/v1/productions', 'externalId'], ['/v1/productions', 'cursor'], ['/v1/webhooks', 'cursor']] as const) {
        const res = await stack.app.request(`${path}?${name}=${encoded}`, withKey(apiKey));
        expect(res.status, `${what} in ${path}?${name}`).toBe(400);
        expect((await json(res)).issues, `${what} in ${path}?${name}`).toEqual([{ path: name, message: asBytes }]);
      }
    }
  });

  it('in a path parameter: a link\'s token holding NUL is named; one that is not UTF-8 is no link of ours (404), an id no id (400)', async ({ stack, database }) => {
    const { apiKey } = await seedAccount(database.db);
    for (const { what, encoded, asBytes } of MALFORMED) {
      const link = await stack.app.request(`/production-links/${encoded}`, from());
      expect(link.status, what).toBe(asBytes === NUL_REFUSED ? 400 : 404);
      if (asBytes === NUL_REFUSED) expect((await json(link)).issues, what).toEqual([{ path: 'token', message: NUL_REFUSED }]);
      const production = await stack.app.request(`/v1/productions/${encoded}`, withKey(apiKey));
      expect(production.status, what).toBe(400);
      expect((await json(production)).issues, what).toEqual([expect.objectContaining({ path: 'id' })]);
    }
  });
});

describe('text people write is taken and kept exactly', () => {
  it('in a brief, an externalId and an origin, found again by its externalId', async ({ stack, database }) => {
    const { apiKey } = await seedAccount(database.db, { credits: 100 });
    const body = { brief: { intent: VALID, context: VALID, brand: { name: VALID.slice(0, 100) } }, externalId: VALID, origin: { provider: 'github', label: VALID } };
    const res = await stack.app.request('/v1/productions', withKey(apiKey, { json: body }));
    expect(res.status).toBe(201);
    const { production } = await json(res);
    const row = await database.db.production.findUniqueOrThrow({ where: { id: production.id } });
    expect(row.externalId).toBe(VALID);
    expect(row.brief).toMatchObject({ intent: VALID, context: VALID, brand: { name: VALID.slice(0, 100) } });
    expect(row.origin).toMatchObject({ label: VALID });
    const found = await json(await stack.app.request(`/v1/productions?externalId=${encodeURIComponent(VALID)}`, withKey(apiKey)));
    expect(found.productions.map((p: { id: string }) => p.id)).toEqual([production.id]);
  });

  it('in a renders form\'s app name', async ({ stack, database }) => {
    const { apiKey } = await seedAccount(database.db);
    const form = new FormData();
    form.append('images', new Blob([new Uint8Array(await makeImage('png'))]), 'screen.png');
    form.append('appName', VALID.slice(0, 100));
    form.append('wait', 'false');
    const res = await stack.app.request('/v1/renders', { method: 'POST', headers: { authorization: `Bearer ${apiKey}` }, body: form });
    expect(res.status).toBe(202);
    const { render } = await json(res);
    expect((await database.db.render.findUniqueOrThrow({ where: { id: render.id } })).appName).toBe(VALID.slice(0, 100));
  });
});
