import { afterAll, beforeAll, describe, expect } from 'vitest';
import { createAccount, createWorkspace, requestSignIn, saveBrand, setMember } from '@vp/accounts';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '@vp/contracts';
import { createDb } from '@vp/db';
import { test } from '@vp/testing';
import { SIGN_IN_LIMITS } from './http/limits.ts';
import { signedInSession, startMailCatcher, startTestApp, type MailCatcher, type TestApp } from './testing/index.ts';

let mail: MailCatcher;
beforeAll(async () => {
  mail = await startMailCatcher();
});
afterAll(() => mail?.close());

/** A clock for the rate limiter's windows; the test moves it to a fresh minute where it needs one. */
let limiterNow = Date.UTC(2030, 0, 1, 12, 0, 0);
const it = test.extend('app', { scope: 'file' }, async ({ database }, { onCleanup }) => {
  const app = await startTestApp(database, { mail, limiterNow: () => limiterNow });
  onCleanup(app.close);
  return app;
});

const CSP_NONCE = /script-src 'nonce-([^']+)'/;

/** Asks for a sign-in link as the sign-in page's form does. */
const ask = (app: TestApp, email: string) => app.app.request('/sign-in', {
  method: 'POST', headers: { origin: app.url, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ email }),
});

describe('every page', () => {
  it('has a CSP whose scripts need a fresh nonce, no framing, forms to itself; nosniff, no Referer; no cache', async ({ app, database }) => {
    const me = await signedInSession(database.db, 'headers@example.test');
    const nonces = new Set<string>();
    for (const [path, headers] of [['/sign-in', {}], ['/account', { cookie: me.cookie }], ['/keys', { cookie: me.cookie }], ['/nowhere', {}]] as const) {
      const res = await app.app.request(path, { headers });
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).not.toContain('unsafe-inline');
      for (const directive of ["default-src 'none'", "frame-ancestors 'none'", "form-action 'self'", "base-uri 'none'", "object-src 'none'", "style-src 'self'"]) expect(csp, path).toContain(directive);
      // Videos and stills come from the API's host, where the app's /share addresses lead.
      expect(csp, path).toContain(`media-src 'self' ${new URL(app.config.baseUrl).origin}`);
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('referrer-policy'), path).toBe('no-referrer');
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.headers.get('cache-control'), path).toBe('no-store');
      const nonce = CSP_NONCE.exec(csp)?.[1];
      expect(nonce, path).toBeTruthy();
      nonces.add(nonce!);
      // Every script on the page carries the nonce; none is inline.
      const html = await res.text();
      for (const tag of html.match(/<script[^>]*>/g) ?? []) expect(tag, path).toContain(`nonce="${nonce}"`);
      expect(html, path).not.toMatch(/<script[^>]*>[^<]/);
    }
    expect(nonces.size).toBe(4);
  });

  it('sends a browser without a session to sign in', async ({ app }) => {
    for (const path of ['/', '/account', '/keys', '/workspace', '/productions/new', '/productions/6f1c4a52-0d3f-4b8e-9a51-2f0e4c1d7b90', '/webhooks']) {
      const res = await app.app.request(path);
      expect(res.status, path).toBe(303);
      expect(res.headers.get('location'), path).toBe('/sign-in');
    }
  });

  it('and back to the page it asked for once signed in (a page of this app only)', async ({ app, database }) => {
    const page = '/productions/6f1c4a52-0d3f-4b8e-9a51-2f0e4c1d7b90?done=created';
    const asked = await app.app.request(page);
    const remembered = /vp_return=([^;]+)/.exec(asked.headers.get('set-cookie') ?? '')?.[1];
    expect(decodeURIComponent(remembered!)).toBe(page);
    const signIn = async (cookie: string) => {
      const link = await requestSignIn(database.db, { email: 'back@example.test', signup: 'open' });
      return app.app.request('/sign-in/link', {
        method: 'POST', headers: { origin: app.url, cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: link.token }),
      });
    };
    expect((await signIn(`vp_return=${remembered}`)).headers.get('location')).toBe(page);
    for (const elsewhere of ['//evil.example/x', 'https://evil.example/', '/sign-in/link?token=x']) {
      expect((await signIn(`vp_return=${encodeURIComponent(elsewhere)}`)).headers.get('location'), elsewhere).toBe('/');
    }
  });
});

describe('forged requests (every state-changing POST checks the Origin and the session\'s CSRF token)', () => {
  it('refuse a POST from another origin, or with neither Origin nor Sec-Fetch-Site, with a 403 page', async ({ app, database }) => {
    const me = await signedInSession(database.db, 'origin@example.test');
    const post = (headers: Record<string, string>) => app.app.request('/account/name', {
      method: 'POST', headers: { cookie: me.cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams({ _csrf: me.csrf, name: 'Changed' }),
    });
    const forged: Record<string, string>[] = [{ origin: 'https://evil.example' }, { origin: 'null', 'sec-fetch-site': 'cross-site' }, {}, { 'sec-fetch-site': 'same-site' }, { origin: app.url.replace('localhost', '127.0.0.1') }];
    for (const headers of forged) {
      const res = await post(headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(await res.text()).toContain('not sent from this site');
    }
    expect(await database.db.account.findUnique({ where: { id: me.accountId } })).toMatchObject({ name: null });
    // The app's own pages: Origin, or (a no-referrer page's forms send `Origin: null`) Sec-Fetch-Site.
    expect((await post({ origin: app.url })).status).toBe(303);
    expect((await post({ origin: 'null', 'sec-fetch-site': 'same-origin' })).status).toBe(303);
    expect((await post({ 'sec-fetch-site': 'same-origin' })).status).toBe(303);
  });

  it('refuse a POST without the session\'s CSRF token, with a wrong one, or with another session\'s', async ({ app, database }) => {
    const me = await signedInSession(database.db, 'csrf@example.test');
    const other = await signedInSession(database.db, 'csrf-other@example.test');
    const post = (form: Record<string, string>, headers: Record<string, string> = {}) => app.app.request('/keys', {
      method: 'POST', headers: { cookie: me.cookie, origin: app.url, 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams({ name: 'ci', scopes: 'productions', ...form }),
    });
    const forms: Record<string, string>[] = [{}, { _csrf: '' }, { _csrf: `${me.csrf}x` }, { _csrf: other.csrf }];
    for (const form of forms) {
      const res = await post(form);
      expect(res.status, JSON.stringify(form)).toBe(403);
      expect(await res.text()).toContain('Not allowed');
    }
    expect((await post({}, { 'x-csrf-token': other.csrf })).status).toBe(403);
    expect(await database.db.apiKey.count({ where: { accountId: me.accountId } })).toBe(0);
    expect((await post({ _csrf: me.csrf })).status).toBe(200);
    expect(await database.db.apiKey.count({ where: { accountId: me.accountId } })).toBe(1);
  });

  it('refuse a viewer\'s POSTs to owners\' and editors\' forms (403), and an outsider\'s workspace (404)', async ({ app, database }) => {
    const { account: owner } = await createAccount(database.db, { email: 'f-owner@example.test' });
    const team = await createWorkspace(database.db, { ownerId: owner.id, name: 'Forged' });
    const viewer = await signedInSession(database.db, 'f-viewer@example.test');
    await setMember(database.db, { workspaceId: team.id, accountId: viewer.accountId, role: 'viewer' });
    const post = (path: string, form: Record<string, string>) => app.app.request(path, {
      method: 'POST', headers: { cookie: viewer.cookie, origin: app.url, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ _csrf: viewer.csrf, ...form }),
    });
    expect((await post('/workspace/switch', { workspaceId: team.id })).status).toBe(303);
    const page = await (await app.app.request('/workspace', { headers: { cookie: viewer.cookie } })).text();
    expect(page).toContain('Forged');
    expect(page).not.toContain('action="/workspace/invitations"');
    expect(page).not.toContain('/role"');
    for (const [path, form] of [
      ['/workspace/invitations', { email: 'x@example.test', role: 'owner' }], [`/workspace/members/${owner.id}/remove`, {}],
      [`/workspace/members/${viewer.accountId}/role`, { role: 'owner' }], ['/workspace/brand', { name: 'Mine' }],
    ] as const) {
      expect((await post(path, form)).status, path).toBe(403);
    }
    expect(await database.db.membership.findUnique({ where: { workspaceId_accountId: { workspaceId: team.id, accountId: viewer.accountId } } })).toMatchObject({ role: 'viewer' });
    const outsider = await signedInSession(database.db, 'f-outsider@example.test');
    const res = await app.app.request('/workspace/switch', {
      method: 'POST', headers: { cookie: outsider.cookie, origin: app.url, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ _csrf: outsider.csrf, workspaceId: team.id }),
    });
    expect(res.status).toBe(404);
  });
});

describe('sign-in requests', () => {
  const withoutNonce = (html: string) => html.replace(/nonce="[^"]+"/g, '');

  it('answer the same page for every address; the link opens a page that signs in only when its button is pressed', async ({ app, database }) => {
    limiterNow += 60_000;
    await createAccount(database.db, { email: 'has-account@example.test' });
    const known = await ask(app, 'has-account@example.test');
    const unknown = await ask(app, 'no-account@example.test');
    expect([known.status, unknown.status]).toEqual([200, 200]);
    expect(withoutNonce(await known.text()).replaceAll('has-account', 'X')).toBe(withoutNonce(await unknown.text()).replaceAll('no-account', 'X'));
    const link = (await mail.next('no-account@example.test', 0)).text.match(/\/sign-in\/link\?token=[\w-]+/)![0];
    for (let i = 0; i < 2; i++) expect((await app.app.request(link)).status).toBe(200);
    const token = new URL(link, app.url).searchParams.get('token')!;
    const use = () => app.app.request('/sign-in/link', { method: 'POST', headers: { origin: app.url, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token }) });
    const signedIn = await use();
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('set-cookie')).toMatch(/^vp_session=[\w-]{43}; Max-Age=2592000; Path=\/; HttpOnly; SameSite=Lax$/);
    expect((await use()).status).toBe(410);
    expect((await ask(app, 'not an address')).status).toBe(400);
  });

  it('are counted per e-mail address and per client address, a minute at a time', async ({ app }) => {
    limiterNow += 60_000;
    const statuses = [];
    for (let i = 0; i <= SIGN_IN_LIMITS.perEmail; i++) statuses.push((await ask(app, 'flood@example.test')).status);
    expect(statuses).toEqual([...Array(SIGN_IN_LIMITS.perEmail).fill(200), 429]);
    limiterNow += 60_000;
    const perAddress = [];
    for (let i = 0; i <= SIGN_IN_LIMITS.perAddress; i++) perAddress.push(await ask(app, `person${i}@example.test`));
    expect(perAddress.map((r) => r.status)).toEqual([...Array(SIGN_IN_LIMITS.perAddress).fill(200), 429]);
    expect(Number(perAddress.at(-1)!.headers.get('retry-after'))).toBeGreaterThan(0);
    limiterNow += 60_000;
    expect((await ask(app, 'flood@example.test')).status).toBe(200);
  });
});

describe('on https', () => {
  it('the session cookie is __Host- prefixed and Secure; the app\'s https origin is the one forms must come from', async ({ database }) => {
    const app = await startTestApp(database, { env: { APP_URL: 'https://app.example.test' } });
    try {
      const link = await requestSignIn(database.db, { email: 'secure@example.test', signup: 'open' });
      const use = (origin: string) => app.app.request('/sign-in/link', { method: 'POST', headers: { origin, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: link.token }) });
      expect((await use(app.url)).status).toBe(403);
      const signedIn = await use('https://app.example.test');
      expect(signedIn.headers.get('set-cookie')).toMatch(/^__Host-vp_session=[\w-]{43}; Max-Age=2592000; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
      const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
      expect((await app.app.request('/account', { headers: { cookie } })).status).toBe(200);
      // The plain name means nothing on https.
      expect((await app.app.request('/account', { headers: { cookie: cookie.replace('__Host-', '') } })).status).toBe(303);
    } finally {
      await app.close();
    }
  });
});

describe('a database that cannot be reached', () => {
  it('is a 503 page with Retry-After: try again shortly, nothing broke', async ({ database }) => {
    // An app whose database refuses connections (a restart, a failover).
    const away = createDb(database.url.replace(/@[^/]+\//, '@127.0.0.1:1/'), { max: 1 });
    const app = await startTestApp({ url: database.url, db: away });
    try {
      const res = await app.app.request('/account', { headers: { cookie: `vp_session=${'a'.repeat(43)}` } });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe(String(UNAVAILABLE_RETRY_AFTER_SECONDS));
      expect(res.headers.get('cache-control')).toBe('no-store');
      const page = await res.text();
      expect(page).toContain('<h1>Try again shortly</h1>');
      expect(page).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|at .*\.ts/);
    } finally {
      await app.close();
      await away.$disconnect();
    }
  });
});

describe('SIGNUP=invite', () => {
  it('e-mails a link only to an address with an account or an invitation, and tells the asker nothing', async ({ database }) => {
    const app = await startTestApp(database, { mail, env: { SIGNUP: 'invite' } });
    try {
      const res = await ask(app, 'uninvited@example.test');
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('Check your e-mail');
      const note = await mail.next('uninvited@example.test', 0);
      expect(note.text).toContain('accounts here are made by invitation');
      expect(note.text).not.toContain('/sign-in/link');
    } finally {
      await app.close();
    }
  });
});

describe('escaping', () => {
  const EVIL = `<script>alert("x")</script>'"`;
  it('shows every user-supplied field as text: names, workspace name, brand, key names', async ({ app, database }) => {
    const me = await signedInSession(database.db, 'escape@example.test');
    const caller = { accountId: me.accountId, actor: `user:${me.accountId}`, via: 'app' } as const;
    await database.db.account.update({ where: { id: me.accountId }, data: { name: EVIL } });
    const team = await createWorkspace(database.db, { ownerId: me.accountId, name: EVIL });
    const { account: member } = await createAccount(database.db, { email: 'escaped-member@example.test', name: EVIL });
    await setMember(database.db, { workspaceId: team.id, accountId: member.id, role: 'editor' });
    await saveBrand(database.db, caller, { workspaceId: team.id, brand: { name: EVIL, primaryColor: '"><b>', fontFamily: EVIL, tone: EVIL, logoUrl: 'https://example.com/a"b<c>.png' } });
    await database.db.apiKey.create({ data: { accountId: me.accountId, name: EVIL, prefix: 'svc_live_abc', hash: 'h-escape', scopes: ['productions'] } });
    await database.db.session.update({ where: { id: me.sessionId }, data: { workspaceId: team.id } });
    for (const path of ['/', '/workspace', '/account', '/keys', '/productions/new', '/webhooks']) {
      const html = await (await app.app.request(path, { headers: { cookie: me.cookie } })).text();
      expect(html, path).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&quot;');
      expect(html, path).not.toContain('<script>alert');
      expect(html, path).not.toContain('"><b>');
    }
  });
});

describe('the login-free pages', () => {
  it('are still the gateway\'s: the app sends the browser there, path and query kept', async ({ app }) => {
    for (const path of ['/go/abc?action=greenlight', '/share/123']) {
      const res = await app.app.request(path);
      expect(res.status, path).toBe(307);
      expect(res.headers.get('location'), path).toBe(`${app.config.baseUrl}${path}`);
    }
  });

  it('but a project is the app\'s, behind sign-in: a signed-out browser is sent to sign in, and back after', async ({ app }) => {
    const res = await app.app.request('/projects/456/edit');
    expect([res.status, res.headers.get('location')]).toEqual([303, '/sign-in']);
    expect(res.headers.get('set-cookie')).toContain(`vp_return=${encodeURIComponent('/projects/456/edit')}`);
  });
});
