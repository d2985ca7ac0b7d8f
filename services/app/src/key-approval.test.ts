import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { generateUserCode, formatUserCode, requestSignIn } from '@vp/accounts';
import type { KeyRequestStatus } from '@vp/db';
import { test } from '@vp/testing';
import { WRONG_CODES_PER_MINUTE } from './routes/key-approval.tsx';
import { signedInSession, startTestApp, type TestApp } from './testing/index.ts';

/** The rate limiter's clock: each test that counts moves it to a minute of its own. */
let limiterNow = Date.UTC(2030, 0, 1, 12, 0, 30);
const it = test.extend('app', { scope: 'file' }, async ({ database }, { onCleanup }) => {
  const app = await startTestApp(database, { limiterNow: () => limiterNow });
  onCleanup(app.close);
  return app;
});

/** A request as its workflow would have left it (the page reads the read model). */
async function keyRequest(app: TestApp, fields: { status?: KeyRequestStatus; name?: string; expiresAt?: Date } = {}) {
  const userCode = generateUserCode();
  const status = fields.status ?? 'pending';
  await app.deps.db.keyRequest.create({
    data: {
      id: randomUUID(), deviceCodeHash: randomBytes(32).toString('hex'), userCode, liveUserCode: status === 'pending' ? userCode : null,
      name: fields.name ?? 'vp CLI', requestedFrom: '203.0.113.5', status, expiresAt: fields.expiresAt ?? new Date(Date.now() + 600_000),
    },
  });
  return { userCode: formatUserCode(userCode) };
}

const page = (app: TestApp, path: string, cookie?: string) => app.app.request(path, { headers: cookie ? { cookie } : {} });

describe('/keys/approve (spec: Authentication 6; DECISIONS: Device key requests)', () => {
  it('sends a signed-out browser to sign in, and back to the page with its code once signed in (never to another site)', async ({ app, database }) => {
    const res = await page(app, '/keys/approve?code=BCDF-GHJK');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/sign-in');
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^vp_return=%2Fkeys%2Fapprove%3Fcode%3DBCDF-GHJK; Max-Age=3600; Path=\/; HttpOnly; SameSite=Lax/);

    const signIn = async (returnCookie: string) => {
      const link = await requestSignIn(database.db, { email: 'returning@example.test', signup: 'open' });
      return app.app.request('/sign-in/link', {
        method: 'POST', headers: { cookie: returnCookie, origin: app.url, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: link.token }),
      });
    };
    const back = await signIn(cookie.split(';')[0]!);
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe('/keys/approve?code=BCDF-GHJK');
    expect(back.headers.get('set-cookie')).toContain('vp_return=;');
    for (const elsewhere of ['//evil.example/keys', 'https://evil.example', '/\\evil.example']) {
      expect((await signIn(`vp_return=${encodeURIComponent(elsewhere)}`)).headers.get('location'), elsewhere).toBe('/');
    }
  });

  it('shows a pending request to confirm: its code, who asks (escaped), when and from where, and Approve and Deny carrying the CSRF token', async ({ app, database }) => {
    const me = await signedInSession(database.db, 'confirm@example.test');
    const request = await keyRequest(app, { name: '<script>alert(1)</script> CLI' });
    for (const typed of [request.userCode, request.userCode.replace('-', '').toLowerCase(), ` ${request.userCode.toLowerCase()} `]) {
      const res = await page(app, `/keys/approve?code=${encodeURIComponent(typed)}`, me.cookie);
      expect(res.status, typed).toBe(200);
      const html = await res.text();
      expect(html).toContain(`Does your tool show <code class="user-code">${request.userCode}</code>?`);
      expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; CLI');
      expect(html).not.toContain('<script>alert(1)');
      expect(html).toContain('203.0.113.5');
      expect(html).toContain(`name="_csrf" value="${me.csrf}"`);
      expect(html).toMatch(/value="approve">Approve<\/button>/);
      expect(html).toMatch(/value="deny"[^>]*>Deny<\/button>/);
    }
    // Without a code: a form to type it.
    expect(await (await page(app, '/keys/approve', me.cookie)).text()).toContain('Enter the code your tool shows');
  });

  it('says in words when a code was answered already or has expired, and approves nothing', async ({ app, database }) => {
    const me = await signedInSession(database.db, 'words@example.test');
    const cases = [
      [{ status: 'approved' }, 409, 'This request was already approved.'],
      [{ status: 'claimed' }, 409, 'This request was already approved.'],
      [{ status: 'denied' }, 409, 'This request was already refused.'],
      [{ status: 'expired' }, 410, 'This code has expired. Ask the tool for a new one.'],
      // Past its lifetime, a moment before its workflow says so.
      [{ status: 'pending', expiresAt: new Date(Date.now() - 1000) }, 410, 'This code has expired. Ask the tool for a new one.'],
    ] as const;
    for (const [fields, status, words] of cases) {
      const request = await keyRequest(app, fields);
      const res = await page(app, `/keys/approve?code=${request.userCode}`, me.cookie);
      expect([res.status, await res.text()], JSON.stringify(fields)).toEqual([status, expect.stringContaining(words)]);
      const posted = await app.app.request('/keys/approve', {
        method: 'POST', headers: { cookie: me.cookie, origin: app.url, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: me.csrf, code: request.userCode, answer: 'approve' }),
      });
      expect([posted.status, await posted.text()], JSON.stringify(fields)).toEqual([status, expect.stringContaining(words)]);
    }
    expect(await database.db.apiKey.count({ where: { accountId: me.accountId } })).toBe(0);
  });

  it('refuses Approve without the session\'s CSRF token, or from another site', async ({ app, database }) => {
    const me = await signedInSession(database.db, 'forged@example.test');
    const request = await keyRequest(app);
    const post = (form: Record<string, string>, origin = app.url) => app.app.request('/keys/approve', {
      method: 'POST', headers: { cookie: me.cookie, origin, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ code: request.userCode, answer: 'approve', ...form }),
    });
    expect((await post({})).status).toBe(403);
    expect((await post({ _csrf: 'wrong' })).status).toBe(403);
    expect((await post({ _csrf: me.csrf }, 'https://evil.example')).status).toBe(403);
    expect(await database.db.keyRequest.findFirstOrThrow({ where: { userCode: request.userCode.replace('-', '') } })).toMatchObject({ status: 'pending', answeredBy: null });
  });

  it('limits wrong codes to 10 a minute per session: past them even a right code is not looked up (429, Retry-After), while another session goes on', async ({ app, database }) => {
    limiterNow = Date.UTC(2030, 0, 2, 12, 0, 30);
    const me = await signedInSession(database.db, 'walker@example.test');
    const other = await signedInSession(database.db, 'bystander@example.test');
    const request = await keyRequest(app);
    for (let i = 0; i < WRONG_CODES_PER_MINUTE; i++) {
      const res = await page(app, `/keys/approve?code=${formatUserCode(generateUserCode())}`, me.cookie);
      expect(res.status).toBe(404);
      expect(await res.text()).toContain('No key request has this code.');
    }
    const blocked = await page(app, `/keys/approve?code=${request.userCode}`, me.cookie);
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toBe('30');
    expect(await blocked.text()).toContain('Too many wrong codes; try again in 30 s.');
    expect((await page(app, `/keys/approve?code=${request.userCode}`, other.cookie)).status).toBe(200);
    // The next minute, the session may try again.
    limiterNow += 60_000;
    expect((await page(app, `/keys/approve?code=${request.userCode}`, me.cookie)).status).toBe(200);
  });
});
