import { createHash, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect } from 'vitest';
import { balance } from '@vp/ledger';
import { test } from '@vp/testing';
import { deliveredProject, pitchReady } from '@vp/gateway/testing/productions';
import { createTestStack } from '../stack.ts';

// The whole service, behind a trusted proxy: each request comes from an address of its own, so
// that no rate limit per address is reached.
const it = test.extend('stack', { scope: 'file' }, async ({ database }, { onCleanup }) => {
  const stack = await createTestStack(database, { env: { TRUST_PROXY: 'true' } });
  onCleanup(stack.close);
  return stack;
});
type Stack = Awaited<ReturnType<typeof createTestStack>>;

let addresses = 0;
function request(stack: Stack, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  const address = `192.0.2.${++addresses % 250}`;
  return stack.app.request(path, { ...init, headers: { accept: 'text/html', 'x-forwarded-for': address, ...init.headers } });
}
const form = (body: Record<string, string>, headers: Record<string, string> = {}) =>
  ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(body).toString() });

/** The directives of a Content-Security-Policy, each with its sources. */
function directives(policy: string | null): Map<string, string[]> {
  return new Map((policy ?? '').split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...sources]) => [name!, sources]));
}

/**
 * An HTML answer is hardened: a policy that runs only the scripts it names by this answer's
 * nonce, takes only the styles it names (or, on the reference page, inline ones), and allows no
 * framing, no forms to other sites, no `<base>` and no plugins; and the page keeps to it.
 */
function expectHardened(res: Response, page: string, what: string) {
  const policy = directives(res.headers.get('content-security-policy'));
  expect(policy.get('default-src'), what).toEqual(["'none'"]);
  expect(policy.get('frame-ancestors'), what).toEqual(["'none'"]);
  expect(policy.get('form-action')?.[0], what).toBe("'self'");
  expect(policy.get('base-uri'), what).toEqual(["'none'"]);
  expect(policy.get('object-src'), what).toEqual(["'none'"]);
  const [script, ...otherScripts] = policy.get('script-src') ?? [];
  expect(otherScripts, what).toEqual([]);
  const nonce = /^'nonce-([A-Za-z0-9+/]{22}==)'$/.exec(script ?? '')?.[1];
  expect(nonce, what).toBeDefined();
  expect(res.headers.get('x-frame-options'), what).toBe('DENY');
  expect(res.headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(res.headers.get('referrer-policy'), what).toBe('same-origin');

  for (const [, attributes] of page.matchAll(/<script\b([^>]*)>/g)) expect(attributes, `${what}: a script`).toContain(`nonce="${nonce}"`);
  const styles = policy.get('style-src') ?? [];
  if (styles.includes("'unsafe-inline'")) return;
  expect(styles, what).not.toContain("'unsafe-inline'");
  for (const [, attributes, text] of page.matchAll(/<style\b([^>]*)>([\s\S]*?)<\/style>/g)) {
    const hash = `'sha256-${createHash('sha256').update(text!).digest('base64')}'`;
    expect(attributes!.includes(`nonce="${nonce}"`) || styles.includes(hash), `${what}: a style element`).toBe(true);
  }
  expect(page, `${what}: no style attribute`).not.toMatch(/<[^>]+\sstyle=/);
  expect(page, `${what}: no event handler attribute`).not.toMatch(/<[^>]+\son[a-z]+=/i);
}

describe('every HTML page the gateway serves', () => {
  it('is hardened: walking every GET route with addresses that find something and addresses that do not', async ({ stack, database }) => {
    const p = await deliveredProject(stack, database.db);
    const ready = await pitchReady(stack, database.db);
    const values: Record<string, string[]> = {
      token: [ready.token, p.token, 'not-a-token', 'a%0d%0ab.c', '%00', 'x'.repeat(2000)],
      action: ['greenlight', 'comment', 'nothing'],
      exportId: [p.exportId, randomUUID()],
      // The old project addresses: redirects to the app, no page here.
      projectId: [p.projectId, randomUUID()],
      id: [randomUUID()],
      version: ['1', '7'],
      productionId: [ready.production.id, randomUUID()],
      shot: ['1.jpg', 'nothing'],
    };
    const routes = [...new Set(stack.app.routes.filter((r) => r.method === 'GET').map((r) => r.path))];
    const pages = new Set<string>();
    for (const route of routes) {
      const names = [...route.matchAll(/:(\w+)/g)].map((m) => m[1]!);
      const paths = names.reduce((made, name) => made.flatMap((path) => values[name]!.map((value) => path.replace(`:${name}`, value))), [route]);
      for (const path of paths) {
        const res = await request(stack, path);
        if (!res.headers.get('content-type')?.startsWith('text/html')) continue;
        pages.add(`${route} ${res.status}`);
        expectHardened(res, await res.text(), `GET ${path} (${res.status})`);
      }
    }
    // Each page, and the refusal pages too (a link not ours, an address with nothing at it).
    expect([...pages].sort()).toEqual(expect.arrayContaining([
      '/docs 200', '/go/:token 200', '/go/:token 404', '/go/:token/:action 404', '/share/:exportId 200', '/share/:exportId 404',
    ]));
    // A project's pages are the app's, behind sign-in (e2e/app/projects.browser.test.ts): the gateway serves none.
    expect([...pages].filter((page) => page.startsWith('/projects'))).toEqual([]);
  });

  it('is hardened when it answers a form or refuses one, and an address or a method with nothing at it', async ({ stack, database }) => {
    const ready = await pitchReady(stack, database.db);
    for (const [path, init, status] of [
      [`/go/${ready.token}/comment`, form({ comment: ' ' }), 400],
      [`/go/${ready.token}/greenlight`, form({}, { 'sec-fetch-site': 'cross-site' }), 403],
      [`/go/${ready.token}`, { method: 'DELETE' }, 405],
      ['/go/a/b/c', {}, 404],
      ['/go/', {}, 404],
    ] as const) {
      const res = await request(stack, path, init);
      expect(res.status, path).toBe(status);
      expect(res.headers.get('content-type'), path).toMatch(/^text\/html/);
      expectHardened(res, await res.text(), `${init.method ?? 'GET'} ${path} (${status})`);
    }
  });

  it('gets a nonce of its own each time', async ({ stack }) => {
    const [a, b] = await Promise.all([request(stack, '/docs'), request(stack, '/docs')]);
    expect(a.headers.get('content-security-policy')).not.toBe(b.headers.get('content-security-policy'));
  });
});

describe('a link page\'s address that cannot be a link (spec: greenlight links)', () => {
  it('answers 404 as a page, never 500, whatever the token holds', async ({ stack }) => {
    for (const token of ['a%0d%0ab.c', '%0a', 'a%0Ab', '%00', 'a%00b.c', '%0d%0aSet-Cookie:%20x=1', `${'a'.repeat(3000)}.b`, '!!!.***', '%ED%A0%80.x', '%ZZ', 'a.b.c']) {
      for (const [path, init] of [
        [`/go/${token}`, {}], [`/go/${token}/greenlight`, {}], [`/go/${token}/greenlight`, form({})], [`/go/${token}/comment`, form({ comment: 'Shorter' })],
      ] as const) {
        const res = await request(stack, path, init);
        expect(res.status, `${init.method ?? 'GET'} ${path}`).toBe(404);
        expect(res.headers.get('content-type'), path).toMatch(/^text\/html/);
        expect(await res.text(), path).toContain('This link cannot be used');
      }
    }
  });
});

describe('a form sent from another site (CSRF)', () => {
  it('is refused with 403 as a page, acting on nothing; from our own page, or from a program (no Origin, no Sec-Fetch-Site), it acts', async ({ stack, database }) => {
    const p = await pitchReady(stack, database.db);
    for (const headers of <Record<string, string>[]>[
      { 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }, { origin: 'https://attacker.example' }, { origin: 'null' },
      { 'sec-fetch-site': 'same-origin', origin: 'https://attacker.example' },
    ]) {
      const res = await request(stack, `/go/${p.token}/greenlight`, form({}, headers));
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(await res.text()).toContain('This form was sent from a page of another site');
    }
    expect(await p.stage()).toBe('pitch_ready');
    expect(await balance(database.db, p.account.id)).toBe(100);
    const ours = await request(stack, `/go/${p.token}/greenlight`, form({}, { 'sec-fetch-site': 'same-origin', origin: new URL(stack.config.baseUrl).origin }));
    expect(ours.status).toBe(303);
    expect(await balance(database.db, p.account.id)).toBe(90);

  });
});

describe('the API reference page (/docs)', () => {
  it('loads its script from this origin: the installed package\'s own file, at an address naming its version, kept for good', async ({ stack }) => {
    const page = await (await request(stack, '/docs')).text();
    expect(page).not.toMatch(/https?:\/\//);
    const sources = [...page.matchAll(/<script\b[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1]!);
    expect(sources).toHaveLength(1);
    const root = dirname(dirname(createRequire(import.meta.url).resolve('@scalar/api-reference')));
    const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string };
    expect(sources[0]).toBe(`/docs/api-reference-${version}.js`);
    const shipped = await readFile(join(root, 'dist/browser/standalone.js'));
    const plain = await request(stack, sources[0]!, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await plain.arrayBuffer()).equals(shipped)).toBe(true);
    const zipped = await request(stack, sources[0]!, { headers: { 'accept-encoding': 'gzip, br' } });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await zipped.arrayBuffer())).equals(shipped)).toBe(true);
  });
});
