import { Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { createAccount, setMember } from '@vp/accounts';
import { GreenlightLinkView, LINK_LIFETIME_MS } from '@vp/contracts';
import type { Db } from '@vp/db';
import { balance } from '@vp/ledger';
import { mintLinkToken, readLinkToken } from '@vp/links';
import type { Mailer, MailMessage } from '@vp/mail';
import { seedAccount, test, waitFor } from '@vp/testing';
import { startReceiver, type Receiver } from '@vp/webhooks/testing';
import { escapeHtml } from '@vp/gateway/html';
import { appOverTemporal, createTestGateway, json, unreachableTemporal, withKey } from '@vp/gateway/testing';
import { createTestStack } from '../stack.ts';

const mail: MailMessage[] = [];
const mailer: Mailer = { send: async (message) => void mail.push(message) };
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

// The whole service; each test comes from its own address (X-Forwarded-For behind a trusted proxy),
// so the 30-a-minute limit per address is per test.
const it = test.extend('stack', { scope: 'file' }, async ({ database }, { onCleanup }) => {
  const stack = await createTestStack(database, {
    env: { ALLOW_PRIVATE_URLS: 'true', TRUST_PROXY: 'true' },
    worker: { webhookTransport: { ca: receiver.ca }, mailer },
  });
  onCleanup(stack.close);
  return stack;
});
type Stack = Awaited<ReturnType<typeof createTestStack>>;

const linksOff = test.extend('switchedOff', { scope: 'file' }, async ({ database }, { onCleanup }) => {
  const gateway = await createTestGateway(database, { env: { LINKS_ENABLED: 'false' } });
  onCleanup(gateway.close);
  return gateway;
});

let addresses = 0;
/** A visitor from an address of its own. */
function visitor(stack: Pick<Stack, 'app'>) {
  const address = `203.0.113.${++addresses}`;
  const request = (path: string, init: { method?: string; json?: unknown } = {}) =>
    stack.app.request(path, withKey(null, { ...init, headers: { 'x-forwarded-for': address } }));
  return {
    get: (token: string) => request(`/production-links/${token}`),
    post: (token: string, action: 'greenlight' | 'comments' | 'decline', body?: unknown) =>
      request(`/production-links/${token}/${action}`, body === undefined ? { method: 'POST' } : { json: body }),
    /** The page the link opens in a browser, and its forms. */
    open: (token: string, query = '') => stack.app.request(`/go/${token}${query}`, { headers: { 'x-forwarded-for': address, accept: 'text/html' } }),
    submit: (token: string, action: 'greenlight' | 'comment' | 'decline', fields: Record<string, string> = {}) => stack.app.request(`/go/${token}/${action}`, {
      method: 'POST', headers: { 'x-forwarded-for': address, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString(),
    }),
    /** A form post with a body and Content-Type of one's own making. */
    submitRaw: (token: string, action: 'greenlight' | 'comment' | 'decline', contentType: string, body: string) => stack.app.request(`/go/${token}/${action}`, {
      method: 'POST', headers: { 'x-forwarded-for': address, 'content-type': contentType }, body,
    }),
  };
}

const tokenOf = (url: string) => new URL(url).pathname.split('/').at(-1)!;

/**
 * A production whose first pitch awaits an answer, with the links the service sent for it:
 * the one in the webhook payload (minted for the endpoint) and the one e-mailed to the owner.
 */
async function pitchReady(stack: Stack, db: Db, options: { credits?: number } = {}) {
  const me = await seedAccount(db, { credits: options.credits ?? 100 });
  const call = (path: string, init: { method?: string; json?: unknown } = {}) => stack.app.request(path, withKey(me.apiKey, init));
  const hook = (await json(await call('/v1/webhooks', { json: { url: `https://localhost:${receiver.port}/links-${me.workspace.id}` } }))).endpoint;
  const { production } = await json(await call('/v1/productions', { json: { brief: { intent: 'Announce faster exports in release 2.4' } } }));
  const payload = await waitFor(() => {
    const request = receiver.received.find((r) => r.path === `/links-${me.workspace.id}` && r.headers['service-event-type'] === 'production.pitch_ready');
    return request && JSON.parse(request.body);
  }, { what: 'the pitch_ready event' });
  const email = await waitFor(() => mail.find((m) => m.to === me.account.email && m.text.includes(production.id)), { what: 'the e-mail' });
  return {
    ...me, call, hook, production,
    webhookToken: tokenOf(payload.data.links.greenlight),
    emailToken: /\/go\/([^?\s]+)\?action=greenlight/.exec(email.text)![1]!,
    stage: async () => (await db.production.findUniqueOrThrow({ where: { id: production.id } })).stage,
  };
}

describe('GET /production-links/{token}', () => {
  it('shows the link and its production: state open, the version minted for, revisions left, expiry and channel', async ({ stack, database }) => {
    const p = await pitchReady(stack, database.db);
    const res = await visitor(stack).get(p.webhookToken);
    expect(res.status).toBe(200);
    const { link } = await json(res);
    expect(GreenlightLinkView.parse(link)).toEqual(link);
    expect(link).toMatchObject({
      productionId: p.production.id, workspaceName: "Test User's workspace", stage: 'pitch_ready', state: 'open',
      pitchVersion: 1, currentPitchVersion: 1, intent: 'Announce faster exports in release 2.4', origin: null,
      format: { template: 'changelog', durationMs: 10_000, aspect: '16:9' }, delivery: null, revisionsLeft: 3, channel: 'webhook',
      pageUrl: `${stack.config.appUrl}/productions/${p.production.id}`,
    });
    expect(link.pitch).toMatchObject({ version: 1, estimatedCredits: 10 });
    expect(link.pitchMarkdown).toContain(link.pitch.title);
    expect(Date.parse(link.expiresAt) - Date.now()).toBeGreaterThan(LINK_LIFETIME_MS - 60_000);
    const byMail = await json(await visitor(stack).get(p.emailToken));
    expect(byMail.link).toMatchObject({ channel: 'email', state: 'open' });
  });

  it('is 404 for a forged, altered or malformed token', async ({ stack, database }) => {
    const p = await pitchReady(stack, database.db);
    const claims = readLinkToken(stack.config.secrets.links, p.webhookToken)!;
    const forged = mintLinkToken('not-the-server-secret-but-long-enough-0000', claims);
    const [payload, mac] = p.webhookToken.split('.');
    const otherProduction = mintLinkToken('x'.repeat(40), { ...claims, productionId: crypto.randomUUID() }).split('.')[0];
    const you = visitor(stack);
    for (const token of [forged, `${otherProduction}.${mac}`, `${payload}.${mac!.slice(0, -2)}AA`, 'garbage', `${payload}`, 'x'.repeat(5000)]) {
      const res = await you.get(token);
      expect(res.status, token).toBe(404);
      expect((await json(res)).code).toBe('not_found');
    }
    // A well-signed link to a production that does not exist.
    expect((await you.get(mintLinkToken(stack.config.secrets.links, { ...claims, productionId: crypto.randomUUID() }))).status).toBe(404);
  });

  it('still answers an expired link (200, state expired); acting on it is 410 expired', async ({ stack, database }) => {
    const p = await pitchReady(stack, database.db);
    const claims = readLinkToken(stack.config.secrets.links, p.webhookToken)!;
    const expired = mintLinkToken(stack.config.secrets.links, { ...claims, expiresAt: new Date(Date.now() - 1000) });
    const you = visitor(stack);
    const res = await you.get(expired);
    expect(res.status).toBe(200);
    expect((await json(res)).link.state).toBe('expired');
    for (const [action, body] of [['greenlight', undefined], ['comments', { comment: 'Shorter' }], ['decline', {}]] as const) {
      const acted = await you.post(expired, action, body);
      expect(acted.status).toBe(410);
      expect((await json(acted)).code).toBe('expired');
    }
    expect(await p.stage()).toBe('pitch_ready');
  });
});

describe('POST /production-links/{token}/greenlight', () => {
  it('greenlights through the production workflow, charging once, recorded as webhook:<endpointId>; the link is then stale', async ({ stack, database }) => {
    const p = await pitchReady(stack, database.db);
    const you = visitor(stack);
    const res = await you.post(p.webhookToken, 'greenlight');
    expect(res.status).toBe(200);
    expect((await json(res)).link).toMatchObject({ state: 'stale', productionId: p.production.id });
    expect(['greenlit', 'making']).toContain(await p.stage());
    expect(await balance(database.db, p.account.id)).toBe(90);
    const greenlit = await database.db.productionEvent.findFirstOrThrow({ where: { productionId: p.production.id, kind: 'greenlit' } });
    expect(greenlit).toMatchObject({ actor: `webhook:${p.hook.id}`, actorName: null });

    const again = await you.post(p.webhookToken, 'greenlight');
    expect(again.status).toBe(409);
    expect((await json(again)).code).toBe('stale');
    expect((await json(await you.get(p.webhookToken))).link.state).toBe('stale');
  });

  it('two links at once (the e-mail and the webhook): exactly one wins, one charge', async ({ stack, database }) => {
    const p = await pitchReady(stack, database.db);
    const [a, b] = await Promise.all([visitor(stack).post(p.emailToken, 'greenlight'), visitor(stack).post(p.webhookToken, 'greenlight')]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const loser = a.status === 409 ? a : b;
    expect((await json(loser)).code).toBe('stale');
    expect(await database.db.creditEntry.count({ where: { productionId: p.production.id, kind: 'charge' } })).toBe(1);
    expect(await balance(database.db, p.account.id)).toBe(90);
    const greenlit = await database.db.productionEvent.findMany({ where: { productionId: p.production.id, kind: 'greenlit' } });
    expect(greenlit).toHaveLength(1);
    expect([`email:${p.account.email}`, `webhook:${p.hook.id}`]).toContain(greenlit[0]!.actor);
  });

  it('answers 402 credits when the owner cannot pay; the pitch stands', async ({ stack, database }) => {
    const p = await pitchReady(stack, database.db, { credits: 10 });
    await database.db.creditEntry.create({ data: { accountId: p.account.id, kind: 'grant', amount: -5, note: 'spent elsewhere' } });
    const res = await visitor(stack).post(p.emailToken, 'greenlight');
    expect(res.status).toBe(402);
    expect((await json(res)).code).toBe('credits');
    expect(await p.stage()).toBe('pitch_ready');
    expect((await json(await visitor(stack).get(p.emailToken))).link.state).toBe('open');
  });
});

describe('rotating the signing secret (LINK_SIGNING_SECRET_PREVIOUS)', () => {
  it('keeps links already sent working while the previous secret is kept, and no longer once it is dropped', async ({ stack, database }) => {
    const p = await pitchReady(stack, database.db);
    const rotated = (previous?: string) => createTestGateway(database, {
      env: { TRUST_PROXY: 'true', LINK_SIGNING_SECRET: 'the-secret-after-the-rotation-32-characters', ...(previous ? { LINK_SIGNING_SECRET_PREVIOUS: previous } : {}) },
    });
    const settling = await rotated(stack.config.secrets.links);
    const settled = await rotated();
    try {
      expect((await visitor(settled).get(p.emailToken)).status).toBe(404);
      expect((await visitor(settling).get(p.emailToken)).status).toBe(200);
      expect((await visitor(settling).post(p.emailToken, 'greenlight')).status).toBe(200);
      expect(await balance(database.db, p.account.id)).toBe(90);
    } finally {
      await Promise.all([settling.close(), settled.close()]);
    }
  });
});

describe('POST /production-links/{token}/comments and /decline', () => {
  it('comments (200): the next pitch is written, recorded as email:<address>; the link is stale for the new version', async ({ stack, database }) => {
    const p = await pitchReady(stack, database.db);
    const you = visitor(stack);
    const res = await you.post(p.emailToken, 'comments', { comment: 'Mention the streaming encoder' });
    expect(res.status).toBe(200);
    expect((await json(res)).link).toMatchObject({ state: 'stale', stage: 'writing_pitch', revisionsLeft: 2 });
    const comment = await database.db.productionEvent.findFirstOrThrow({ where: { productionId: p.production.id, kind: 'comment' } });
    expect(comment).toMatchObject({ actor: `email:${p.account.email}`, actorName: p.account.email, payload: expect.objectContaining({ comment: 'Mention the streaming encoder', pitchVersion: 1 }) });
    await waitFor(async () => (await p.stage()) === 'pitch_ready', { what: 'pitch version 2' });
    const { link } = await json(await you.get(p.emailToken));
    expect(link).toMatchObject({ state: 'stale', pitchVersion: 1, currentPitchVersion: 2 });
    expect((await json(await you.post(p.emailToken, 'decline'))).code).toBe('stale');
  });

  it('refuses a missing, blank or too long comment, and a too long reason (400)', async ({ stack, database }) => {
    const p = await pitchReady(stack, database.db);
    const you = visitor(stack);
    for (const body of [undefined, {}, { comment: '' }, { comment: ' \n\t ' }, { comment: 'x'.repeat(4001) }]) {
      expect((await you.post(p.webhookToken, 'comments', body)).status).toBe(400);
    }
    expect((await you.post(p.webhookToken, 'decline', { reason: 'r'.repeat(1001) })).status).toBe(400);
    const nul = await you.post(p.webhookToken, 'comments', { comment: 'Shorter\u0000 please' });
    expect(nul.status).toBe(400);
    expect((await json(nul)).issues).toEqual([{ path: 'comment', message: expect.stringContaining('NUL') }]);
    expect(await p.stage()).toBe('pitch_ready');
  });

  it('answers 429 cap when the workspace has used its pitches for the month', async ({ stack, database }) => {
    const p = await pitchReady(stack, database.db);
    await database.db.workspace.update({ where: { id: p.workspace.id }, data: { pitchCap: 1 } });
    const res = await visitor(stack).post(p.webhookToken, 'comments', { comment: 'Shorter please' });
    expect(res.status).toBe(429);
    expect((await json(res)).code).toBe('cap');
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    const page = await visitor(stack).submit(p.webhookToken, 'comment', { comment: 'Shorter please' });
    expect(page.status).toBe(429);
    expect(page.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('declines with an empty body sent as application/json, as many clients send every POST', async ({ stack, database }) => {
    const p = await pitchReady(stack, database.db);
    const res = await stack.app.request(`/production-links/${p.emailToken}/decline`, {
      method: 'POST', headers: { 'x-forwarded-for': '198.51.100.77', 'content-type': 'application/json', 'content-length': '0' },
    });
    expect(res.status).toBe(200);
    expect(await p.stage()).toBe('declined');
  });

  it('declines (200), with or without a reason', async ({ stack, database }) => {
    const p = await pitchReady(stack, database.db);
    const res = await visitor(stack).post(p.webhookToken, 'decline', { reason: 'Not this release' });
    expect(res.status).toBe(200);
    expect((await json(res)).link).toMatchObject({ stage: 'declined', state: 'stale' });
    const declined = await database.db.productionEvent.findFirstOrThrow({ where: { productionId: p.production.id, kind: 'declined' } });
    expect(declined).toMatchObject({ actor: `webhook:${p.hook.id}`, payload: { stage: 'declined', reason: 'Not this release' } });
    const q = await pitchReady(stack, database.db);
    expect((await visitor(stack).post(q.emailToken, 'decline')).status).toBe(200);
  });
});

describe('revoked links (403 revoked)', () => {
  it('a member who can no longer greenlight (downgraded to viewer, or removed) holds a revoked link', async ({ stack, database }) => {
    const p = await pitchReady(stack, database.db);
    const { account } = await createAccount(database.db, { email: `editor-${Date.now()}@example.test` });
    await setMember(database.db, { workspaceId: p.workspace.id, accountId: account.id, role: 'editor' });
    const claims = readLinkToken(stack.config.secrets.links, p.emailToken)!;
    const token = mintLinkToken(stack.config.secrets.links, { ...claims, recipient: { kind: 'email', email: account.email } });
    const you = visitor(stack);
    expect((await you.get(token)).status).toBe(200);

    await setMember(database.db, { workspaceId: p.workspace.id, accountId: account.id, role: 'viewer' });
    for (const res of [await you.get(token), await you.post(token, 'greenlight'), await you.post(token, 'comments', { comment: 'Hi' })]) {
      expect(res.status).toBe(403);
      expect((await json(res)).code).toBe('revoked');
    }
    await database.db.membership.delete({ where: { workspaceId_accountId: { workspaceId: p.workspace.id, accountId: account.id } } });
    expect((await you.post(token, 'greenlight')).status).toBe(403);
    expect(await p.stage()).toBe('pitch_ready');
  });

  it('a link sent to a webhook endpoint stops working when the endpoint is deleted', async ({ stack, database }) => {
    const p = await pitchReady(stack, database.db);
    expect((await p.call(`/v1/webhooks/${p.hook.id}`, { method: 'DELETE' })).status).toBe(204);
    const you = visitor(stack);
    for (const res of [await you.get(p.webhookToken), await you.post(p.webhookToken, 'greenlight')]) {
      expect(res.status).toBe(403);
      expect((await json(res)).code).toBe('revoked');
    }
    // The owner's e-mailed link still works.
    expect((await you.post(p.emailToken, 'greenlight')).status).toBe(200);
  });
});

describe('the page a link opens (/go/{token})', () => {
  it('shows the pitch with forms to greenlight, comment and decline; opening it, as mail scanners do, acts on nothing', async ({ stack, database }) => {
    const p = await pitchReady(stack, database.db);
    const { link } = await json(await visitor(stack).get(p.emailToken));
    const res = await visitor(stack).open(p.emailToken, '?action=greenlight');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await res.text();
    expect(page).toContain(`<h1>${escapeHtml(link.pitch.title)}</h1>`);
    for (const shot of link.pitch.shots) expect(page).toContain(escapeHtml(shot.title));
    // The greenlight asked for is marked, but its button is not focused: a key press meant to scroll must not charge.
    expect(page).toMatch(/<section class="card chosen">\s*<form[^>]*>\s*<button type="submit">Greenlight for 10 credits<\/button>/);
    expect(page).not.toMatch(/<button[^>]*autofocus/);
    for (const action of ['greenlight', 'comment', 'decline']) expect(page).toContain(`action="/go/${p.emailToken}/${action}"`);
    expect(page).toContain('3 rounds left');
    expect(await p.stage()).toBe('pitch_ready');
    expect(await database.db.productionEvent.count({ where: { productionId: p.production.id, kind: 'greenlit' } })).toBe(0);
  });

  it('greenlights from its form: 303 back to the page, which says so; submitting again (a reload) is refused and charges nothing more', async ({ stack, database }) => {
    const p = await pitchReady(stack, database.db);
    const you = visitor(stack);
    const res = await you.submit(p.emailToken, 'greenlight');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/go/${p.emailToken}?done=greenlight`);
    expect(await balance(database.db, p.account.id)).toBe(90);
    expect(await database.db.productionEvent.findFirstOrThrow({ where: { productionId: p.production.id, kind: 'greenlit' } })).toMatchObject({ actor: `email:${p.account.email}` });
    const after = await (await you.open(p.emailToken, '?done=greenlight')).text();
    expect(after).toContain('Greenlit. The credits are charged');
    expect(after).not.toContain('name="comment"');

    const again = await you.submit(p.emailToken, 'greenlight');
    expect(again.status).toBe(409);
    // A double click: the refusal, and where the production stands, so it does not read as a failure.
    const refused = await again.text();
    expect(refused).toContain('already answered');
    expect(refused).toMatch(/The pitch was greenlit; the video is queued\.|The video is being made\./);
    expect(await database.db.creditEntry.count({ where: { productionId: p.production.id, kind: 'charge' } })).toBe(1);
    // The address of a refused form, opened again (from history), is the page.
    const reopened = await stack.app.request(`/go/${p.emailToken}/greenlight`);
    expect(reopened.status).toBe(303);
    expect(reopened.headers.get('location')).toBe(`/go/${p.emailToken}?action=greenlight`);
  });

  it('says an action went through only while that is where things stand: `done` in the address is not believed past it', async ({ stack, database }) => {
    const p = await pitchReady(stack, database.db);
    const page = await (await visitor(stack).open(p.emailToken, '?done=greenlight')).text();
    expect(page).not.toContain('Greenlit. The credits are charged');
    expect(page).toContain('name="comment"');
  });

  it('comments and declines from its forms; a blank comment or a too long reason shows the page again with the problem and what was typed (400)', async ({ stack, database }) => {
    const p = await pitchReady(stack, database.db);
    const you = visitor(stack);
    const blank = await you.submit(p.emailToken, 'comment', { comment: '   ' });
    expect(blank.status).toBe(400);
    expect(await blank.text()).toContain('Write a comment of 1 to 4000 characters.');
    const long = await you.submit(p.emailToken, 'decline', { reason: 'r'.repeat(1001) });
    expect(long.status).toBe(400);
    expect(await long.text()).toContain(`>${'r'.repeat(1001)}</textarea>`);
    expect(await p.stage()).toBe('pitch_ready');

    const commented = await you.submit(p.emailToken, 'comment', { comment: 'Mention the streaming encoder' });
    expect(commented.status).toBe(303);
    expect(await database.db.productionEvent.findFirstOrThrow({ where: { productionId: p.production.id, kind: 'comment' } }))
      .toMatchObject({ actor: `email:${p.account.email}`, payload: expect.objectContaining({ comment: 'Mention the streaming encoder' }) });
    // Once version 2 is written, the old link's page shows it, says the link's version was replaced, and offers no forms.
    await waitFor(async () => (await p.stage()) === 'pitch_ready', { what: 'pitch version 2' });
    const replaced = await (await you.open(p.emailToken)).text();
    expect(replaced).toContain('pitch version 2');
    expect(replaced).toContain('a newer version replaced it');
    // The new version's summary answers the comment in a paragraph of its own.
    expect(replaced).toMatch(/<p>In answer to “Mention the streaming encoder”[^<]*<\/p>\s*<p>/);
    expect(replaced).not.toContain('<form');
    expect(replaced).not.toContain('for this version of the pitch only');

    const q = await pitchReady(stack, database.db);
    expect((await you.submit(q.webhookToken, 'decline')).status).toBe(303);
    expect(await q.stage()).toBe('declined');
  });

  it('answers a form it cannot read (multipart without a boundary) with the page and the problem (400), acting on nothing', async ({ stack, database }) => {
    const p = await pitchReady(stack, database.db);
    const res = await visitor(stack).submitRaw(p.emailToken, 'greenlight', 'multipart/form-data', 'x');
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toContain('The form could not be read');
    expect(await p.stage()).toBe('pitch_ready');
    expect(await balance(database.db, p.account.id)).toBe(100);
  });

  it('counts a line break as one character, as the form\'s maxlength does: 4000 characters sent with CRLF are accepted and kept with LF', async ({ stack, database }) => {
    const p = await pitchReady(stack, database.db);
    // Ten lines, 4000 characters counted the browser's way; the browser sends each break as CRLF (4009 on the wire).
    const comment = Array.from({ length: 10 }, (_, i) => String(i).repeat(i === 0 ? 400 : 399)).join('\n');
    expect(comment).toHaveLength(4000);
    const res = await visitor(stack).submit(p.emailToken, 'comment', { comment: comment.replaceAll('\n', '\r\n') });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/go/${p.emailToken}?done=comment`);
    const stored = await database.db.productionEvent.findFirstOrThrow({ where: { productionId: p.production.id, kind: 'comment' } });
    expect(stored.payload).toMatchObject({ comment });
  });

  it('says why when a link cannot be used: not ours (404), expired (no forms; acting is 410)', async ({ stack, database }) => {
    const you = visitor(stack);
    const forged = await you.open('garbage');
    expect(forged.status).toBe(404);
    expect(await forged.text()).toContain('This link cannot be used');

    const p = await pitchReady(stack, database.db);
    const claims = readLinkToken(stack.config.secrets.links, p.emailToken)!;
    const expired = mintLinkToken(stack.config.secrets.links, { ...claims, expiresAt: new Date(Date.now() - 1000) });
    const page = await (await you.open(expired)).text();
    expect(page).toContain('This link expired');
    expect(page).not.toContain('<form');
    expect((await you.submit(expired, 'greenlight')).status).toBe(410);
    expect(await p.stage()).toBe('pitch_ready');
  });

  linksOff('answers 503 when links are switched off', async ({ switchedOff }) => {
    const res = await visitor(switchedOff).open('any');
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('Greenlight links are switched off on this server.');
  });

  it('counts against the links\' 30 requests a minute per address', async ({ stack }) => {
    const you = visitor(stack);
    await Promise.all(Array.from({ length: 15 }, () => you.get('garbage')));
    const pages = await Promise.all(Array.from({ length: 16 }, () => you.open('garbage')));
    const limited = pages.filter((r) => r.status === 429);
    expect(limited).toHaveLength(1);
    // A page for the person at the browser, not the API's JSON.
    expect(limited[0]!.headers.get('content-type')).toMatch(/^text\/html/);
    expect(limited[0]!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await limited[0]!.text()).toMatch(/<h1>Please try again<\/h1>[\s\S]*Rate limit of 30 requests a minute reached/);
  });
});

describe('when Temporal cannot be reached', () => {
  it('acting answers 503 with Retry-After and no code (`disabled` is for links switched off), the page likewise; nothing is charged', async ({ stack, database }) => {
    const p = await pitchReady(stack, database.db);
    const clients = {
      unreachable: unreachableTemporal(),
      // As the webhook routes' test: a namespace that does not exist.
      'no namespace': new Client({ connection: stack.temporal.client.connection, namespace: `no-such-namespace-${crypto.randomUUID()}` }),
    };
    for (const [name, temporal] of Object.entries(clients)) {
      const you = visitor({ app: appOverTemporal(stack, database.db, temporal) });
      const res = await you.post(p.emailToken, 'greenlight');
      expect(res.status, name).toBe(503);
      expect(res.headers.get('retry-after'), name).toBe('10');
      const body = await json(res);
      expect(body, name).toEqual({ error: expect.stringContaining('right now') });
      expect(body.code, name).not.toBe('disabled');
      const page = await you.submit(p.emailToken, 'comment', { comment: 'Shorter please' });
      expect(page.status, name).toBe(503);
      expect(page.headers.get('retry-after'), name).toBe('10');
      const html = await page.text();
      expect(html, name).toContain(escapeHtml(body.error));
      expect(html, name).toContain('>Shorter please</textarea>');
    }
    expect(await p.stage()).toBe('pitch_ready');
    expect(await balance(database.db, p.account.id)).toBe(100);
    expect((await json(await visitor(stack).get(p.emailToken))).link.state).toBe('open');
  });
});

describe('limits and switches', () => {
  it('allows 30 requests a minute per address (429 rate_limited with Retry-After)', async ({ stack }) => {
    const you = visitor(stack);
    const results = await Promise.all(Array.from({ length: 31 }, () => you.get('garbage')));
    expect(results.filter((r) => r.status === 404)).toHaveLength(30);
    const limited = results.find((r) => r.status === 429)!;
    expect((await json(limited)).code).toBe('rate_limited');
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await visitor(stack).get('garbage')).status).toBe(404); // another address is not limited
  });

  it('counts the address the trusted proxy appended, whatever the caller put before it', async ({ stack }) => {
    const results = await Promise.all(Array.from({ length: 31 }, (_, i) => stack.app.request('/production-links/garbage', {
      headers: { 'x-forwarded-for': `192.0.2.${i}, 198.51.100.200` },
    })));
    expect(results.filter((r) => r.status === 429)).toHaveLength(1);
  });

  linksOff('every link route answers 503 disabled when links are switched off', async ({ switchedOff }) => {
    const you = visitor(switchedOff);
    // Whatever the body: the switch is checked before it is read.
    for (const res of [
      await you.get('any'), await you.post('any', 'greenlight'), await you.post('any', 'comments', { comment: 'x' }), await you.post('any', 'decline'),
      await you.post('any', 'comments', {}), await you.post('any', 'decline', { reason: 'x'.repeat(1001) }),
      await switchedOff.app.request('/production-links/any/comments', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'Shorter, please' }),
      await switchedOff.app.request('/production-links/any/comments', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"comment": "a\\u0000b"}' }),
    ]) {
      expect(res.status).toBe(503);
      expect(await json(res)).toEqual({ error: 'Greenlight links are switched off on this server.', code: 'disabled' });
    }
  });

  it('are documented as public routes', async ({ stack }) => {
    const doc = await json(await stack.app.request('/v1/openapi.json'));
    for (const path of ['/production-links/{token}', '/production-links/{token}/greenlight', '/production-links/{token}/comments', '/production-links/{token}/decline']) {
      const operation = Object.values(doc.paths[path])[0] as { security: unknown[] };
      expect(operation.security, path).toEqual([]);
    }
    expect(doc.components.schemas.GreenlightLinkView.properties.state.enum).toEqual(['open', 'stale', 'expired']);
  });
});
