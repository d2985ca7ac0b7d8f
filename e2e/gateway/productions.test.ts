import { describe, expect } from 'vitest';
import { sqlPool } from '@vp/db';
import { createWorkspace, setMember } from '@vp/accounts';
import { Production, type BriefInput, type Stage } from '@vp/contracts';
import { balance } from '@vp/ledger';
import { seedAccount, test, waitFor } from '@vp/testing';
import { appOverTemporal, createTestGateway, json, unreachableTemporal, withKey } from '@vp/gateway/testing';
import { createTestStack } from '../stack.ts';
import { UNCONFIRMED_CHANGE } from '@vp/temporal-client';

const it = test.extend('stack', { scope: 'file' }, async ({ database }, { onCleanup }) => {
  const stack = await createTestStack(database);
  onCleanup(stack.close);
  return stack;
});

type Stack = Awaited<ReturnType<typeof createTestStack>>;

const BRIEF: BriefInput = {
  intent: 'Announce faster exports in release 2.4',
  context: 'Exports are now twice as fast thanks to a streaming encoder.',
  code: [
    { path: 'src/export/encoder.ts', source: 'export function encode() {\n  return stream();\n}\n', status: 'modified', additions: 40, deletions: 12, patch: '@@ -1 +1 @@\n-old\n+new', score: 0.9 },
  ],
};

/** A caller with its own account, workspace, credits and key. */
async function caller(stack: Stack, db: Parameters<typeof seedAccount>[0], credits = 1000) {
  const seeded = await seedAccount(db, { credits });
  const call = (path: string, init: { method?: string; json?: unknown } = {}) => stack.app.request(path, withKey(seeded.apiKey, init));
  const create = async (body: Record<string, unknown> = { brief: BRIEF }) => call('/v1/productions', { json: body });
  const read = async (id: string) => json(await call(`/v1/productions/${id}`));
  const reach = (id: string, stage: Stage) =>
    waitFor(async () => {
      const body = await read(id);
      return body.production.stage === stage ? body : undefined;
    }, { what: `stage ${stage}` });
  return { ...seeded, call, create, read, reach };
}

describe('POST /v1/productions', () => {
  it('answers 503 disabled with Retry-After when its workflow cannot be started, and creates nothing', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    const app = appOverTemporal(stack, database.db, unreachableTemporal());
    const res = await app.request('/v1/productions', withKey(me.apiKey, { json: { brief: BRIEF, externalId: 'deploy-9c1e' } }));
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('10');
    expect(await json(res)).toEqual({ error: 'Productions cannot be started right now; nothing was created. Try again shortly.', code: 'disabled' });
    expect(await database.db.production.count({ where: { workspaceId: me.workspace.id } })).toBe(0);
    // The same request, once Temporal answers again, creates it (201, not a replay of something half-made).
    expect((await me.create({ brief: BRIEF, externalId: 'deploy-9c1e' })).status).toBe(201);
  });

  it('creates a production (201) with every field of the spec, defaults filled in, and writes a free pitch in the background', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    const res = await me.create({ brief: { intent: 'Ship it' } });
    expect(res.status).toBe(201);
    const { production } = await json(res);
    expect(Production.parse(production)).toEqual(production);
    expect(production).toMatchObject({
      workspaceId: me.workspace.id,
      stage: 'queued',
      source: { kind: 'api', externalId: null, origin: null },
      brief: {
        intent: 'Ship it', context: null, media: [], code: [],
        format: { template: 'changelog', durationMs: 10_000, aspect: '16:9', sound: { voiceover: true, music: true, sfx: true } },
        brand: { name: null, logoUrl: null, primaryColor: null, backgroundColor: null, fontFamily: null, tone: null },
      },
      pitch: null, greenlight: null, greenlightMode: 'manual', delivery: null, projectId: null,
      creditsCharged: 0, error: null, terminal: false,
    });
    expect(production.pageUrl).toBe(`${stack.config.appUrl}/productions/${production.id}`);

    const ready = await me.reach(production.id, 'pitch_ready');
    expect(ready.production.pitch).toMatchObject({ version: 1, verdict: 'video', estimatedCredits: 10 });
    expect(ready.pitchMarkdown).toContain(ready.production.pitch.title);
    expect(ready.queue).toBeNull();
    expect(ready.events.map((e: { kind: string }) => e.kind)).toEqual(['created', 'stage', 'pitch']);
    expect(ready.events[0]).toMatchObject({ kind: 'created', actor: `key:${me.keyId}`, actorName: 'Test User', payload: { stage: 'queued', externalId: null } });
    expect(await balance(database.db, me.account.id)).toBe(1000); // the pitch is free
  });

  it('keeps origin for display and records externalId on the created entry', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    const origin = { provider: 'github', label: 'acme/app#42', url: 'https://github.com/acme/app/pull/42' };
    const { production } = await json(await me.create({ brief: BRIEF, origin, externalId: 'release-2.4' }));
    expect(production.source).toEqual({ kind: 'api', externalId: 'release-2.4', origin: { ...origin, ref: null, requestedBy: null } });
    const { events } = await me.read(production.id);
    expect(events[0].payload).toEqual({ stage: 'queued', externalId: 'release-2.4' });
  });

  it('validates the brief to every bound of the spec (400 with issues)', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    const media = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `m${i}`, kind: 'image', url: `https://cdn.example.com/${i}.png`, name: `Image ${i}` }));
    const code = (n: number) => Array.from({ length: n }, (_, i) => ({ path: `src/f${i}.ts`, source: '' }));
    const cases: [string, Record<string, unknown>, string][] = [
      ['no brief', {}, 'brief'],
      ['empty intent', { brief: { intent: '' } }, 'brief.intent'],
      ['intent over 2000', { brief: { intent: 'x'.repeat(2001) } }, 'brief.intent'],
      ['context over 60000', { brief: { intent: 'x', context: 'y'.repeat(60_001) } }, 'brief.context'],
      ['21 media', { brief: { intent: 'x', media: media(21) } }, 'brief.media'],
      ['medium without url', { brief: { intent: 'x', media: [{ id: 'a', kind: 'image', name: 'A' }] } }, 'brief.media.0.url'],
      ['medium of unknown kind', { brief: { intent: 'x', media: [{ ...media(1)[0], kind: 'audio' }] } }, 'brief.media.0.kind'],
      ['41 code files', { brief: { intent: 'x', code: code(41) } }, 'brief.code'],
      ['code source over 200000', { brief: { intent: 'x', code: [{ path: 'a', source: 'x'.repeat(200_001) }] } }, 'brief.code.0.source'],
      ['score over 1', { brief: { intent: 'x', code: [{ path: 'a', source: '', score: 1.5 }] } }, 'brief.code.0.score'],
      ['duration under 5000', { brief: { intent: 'x', format: { durationMs: 4999 } } }, 'brief.format.durationMs'],
      ['duration over 120000', { brief: { intent: 'x', format: { durationMs: 120_001 } } }, 'brief.format.durationMs'],
      ['unknown aspect', { brief: { intent: 'x', format: { aspect: '5:4' } } }, 'brief.format.aspect'],
      ['unknown template', { brief: { intent: 'x', format: { template: 'trailer' } } }, 'brief.format.template'],
      ['brand logo not a url', { brief: { intent: 'x', brand: { logoUrl: 'logo.png' } } }, 'brief.brand.logoUrl'],
      ['brand logo a data: address', { brief: { intent: 'x', brand: { logoUrl: 'data:image/png;base64,AAAA' } } }, 'brief.brand.logoUrl'],
      ['medium on ftp', { brief: { intent: 'x', media: [{ ...media(1)[0], url: 'ftp://cdn.example.com/a.png' }] } }, 'brief.media.0.url'],
      ['origin url a javascript: address', { brief: { intent: 'x' }, origin: { provider: 'github', label: 'x', url: 'JavaScript:alert(1)' } }, 'origin.url'],
      ['unknown greenlight mode', { brief: { intent: 'x' }, greenlightMode: 'yolo' }, 'greenlightMode'],
      ['externalId over 200', { brief: { intent: 'x' }, externalId: 'e'.repeat(201) }, 'externalId'],
      ['origin provider pattern', { brief: { intent: 'x' }, origin: { provider: 'GitHub!', label: 'x' } }, 'origin.provider'],
      ['workspaceId not a uuid', { brief: { intent: 'x' }, workspaceId: 'mine' }, 'workspaceId'],
    ];
    for (const [what, body, path] of cases) {
      const res = await me.create(body);
      expect(res.status, what).toBe(400);
      const error = await json(res);
      expect(error.issues.map((i: { path: string }) => i.path), what).toContain(path);
    }
    expect(await database.db.production.count({ where: { workspaceId: me.workspace.id } })).toBe(0);
  });

  it('takes a brief at every size the spec allows (40 code files of 200000 characters) and writes its pitch', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    const line = (i: number) => `export const value${i} = compute(${i}); // "quoted", tabbed\t, and \\ escaped\n`;
    const source = Array.from({ length: 4000 }, (_, i) => line(i)).join('').slice(0, 200_000);
    const code = Array.from({ length: 40 }, (_, i) => ({
      path: `src/module-${i}/${'deep/'.repeat(90)}file.ts`.slice(0, 500), source, status: 'modified', additions: 3, deletions: 1,
      patch: `@@ -1,2 +1,2 @@\n${'+added line\n'.repeat(1800)}`.slice(0, 20_000), digest: 'd'.repeat(1500),
    }));
    const media = Array.from({ length: 20 }, (_, i) => ({ id: `m${i}`, kind: 'image', url: `https://cdn.example.com/${'p'.repeat(1900)}/${i}.png`, name: 'n'.repeat(200), description: 'e'.repeat(500) }));
    const brief = { intent: 'i'.repeat(2000), context: 'c'.repeat(60_000), media, code };
    expect(Buffer.byteLength(JSON.stringify({ brief }))).toBeGreaterThan(9_000_000);
    const res = await me.create({ brief });
    expect(res.status).toBe(201);
    const { production } = await json(res);
    await me.reach(production.id, 'pitch_ready');
  });

  it('is idempotent per externalId: 20 concurrent duplicates make exactly one production', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    const responses = await Promise.all(Array.from({ length: 20 }, () => me.create({ brief: BRIEF, externalId: 'deploy-7f3a' })));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array(18).fill(200), 201].sort());
    expect(responses.filter((r) => r.status === 200).every((r) => r.headers.get('idempotent-replayed') === 'true')).toBe(true);
    expect(responses.find((r) => r.status === 201)?.headers.get('idempotent-replayed')).toBeNull();
    const ids = new Set(await Promise.all(responses.map(async (r) => (await json(r)).production.id)));
    expect(ids.size).toBe(1);
    expect(await database.db.production.count({ where: { externalId: 'deploy-7f3a' } })).toBe(1);
    // A later key of the same owner, in the same workspace, replays too.
    const { createApiKey } = await import('@vp/accounts');
    const second = await createApiKey(database.db, { accountId: me.account.id, name: 'second', scopes: ['productions'] });
    const replay = await stack.app.request('/v1/productions', withKey(second.apiKey, { json: { brief: BRIEF, externalId: 'deploy-7f3a' } }));
    expect(replay.status).toBe(200);
    expect((await json(replay)).production.id).toBe([...ids][0]);
  });

  it('answers 402 credits when the owner cannot pay for a video of that length, creating nothing', async ({ stack, database }) => {
    const me = await caller(stack, database.db, 9);
    const res = await me.create({ brief: BRIEF }); // 10 s costs 10 credits
    expect(res.status).toBe(402);
    expect(await json(res)).toEqual({ error: expect.stringContaining('10 credits'), code: 'credits' });
    expect(await database.db.production.count({ where: { workspaceId: me.workspace.id } })).toBe(0);
    expect((await me.create({ brief: { ...BRIEF, format: { durationMs: 9000 } } })).status).toBe(201);
  });

  it('answers 429 cap over the monthly pitch cap, with Retry-After', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    await database.db.workspace.update({ where: { id: me.workspace.id }, data: { pitchCap: 1 } });
    expect((await me.create()).status).toBe(201);
    const res = await me.create();
    expect(res.status).toBe(429);
    expect(await json(res)).toEqual({ error: expect.any(String), code: 'cap' });
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  test('answers 503 disabled when pitches cannot be written, creating nothing', async ({ database }) => {
    const gateway = await createTestGateway(database, { env: { PITCHES_ENABLED: 'false' } });
    try {
      const { apiKey, workspace } = await seedAccount(database.db, { credits: 100 });
      const res = await gateway.app.request('/v1/productions', withKey(apiKey, { json: { brief: BRIEF } }));
      expect(res.status).toBe(503);
      expect(await json(res)).toEqual({ error: expect.any(String), code: 'disabled' });
      expect(await database.db.production.count({ where: { workspaceId: workspace.id } })).toBe(0);
    } finally {
      await gateway.close();
    }
  });
});

describe('GET /v1/productions and /v1/productions/{id}', () => {
  it('lists newest first with stage, limit, cursor and externalId filters, code sources omitted', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    const a = (await json(await me.create({ brief: BRIEF, externalId: 'a' }))).production;
    const b = (await json(await me.create({ brief: BRIEF, externalId: 'b' }))).production;
    const c = (await json(await me.create({ brief: BRIEF }))).production;
    await me.reach(c.id, 'pitch_ready');
    await me.call(`/v1/productions/${c.id}/decline`, { json: {} });

    const all = await json(await me.call('/v1/productions'));
    expect(all.productions.map((p: { id: string }) => p.id)).toEqual([c.id, b.id, a.id]);
    const [file] = all.productions[1].brief.code;
    expect(file).toMatchObject({ path: 'src/export/encoder.ts', source: '', patch: null, sourceOmitted: true, additions: 40, score: 0.9 });

    const page = await json(await me.call('/v1/productions?limit=2'));
    expect(page.productions).toHaveLength(2);
    const rest = await json(await me.call(`/v1/productions?limit=2&cursor=${page.nextCursor}`));
    expect(rest.productions.map((p: { id: string }) => p.id)).toEqual([a.id]);
    expect(rest.nextCursor).toBeUndefined();
    const forged = await me.call('/v1/productions?cursor=bm90LWEtY3Vyc29y');
    expect(forged.status).toBe(400);
    expect(await json(forged)).toEqual({
      error: 'The cursor is not one this list gave.', issues: [{ path: 'cursor', message: 'The cursor is not one this list gave.' }],
    });

    const declined = await json(await me.call('/v1/productions?stage=declined'));
    expect(declined.productions.map((p: { id: string }) => p.id)).toEqual([c.id]);
    const either = await json(await me.call('/v1/productions?stage=declined,queued,writing_pitch,pitch_ready'));
    expect(either.productions).toHaveLength(3);
    expect((await me.call('/v1/productions?stage=done')).status).toBe(400);
    const nul = await me.call('/v1/productions?externalId=a%00b');
    expect(nul.status).toBe(400);
    expect((await json(nul)).issues).toEqual([{ path: 'externalId', message: expect.stringContaining('NUL') }]);

    const byExternal = await json(await me.call('/v1/productions?externalId=b'));
    expect(byExternal.productions.map((p: { id: string }) => p.id)).toEqual([b.id]);
    expect((await json(await me.call('/v1/productions?externalId=zzz'))).productions).toEqual([]);

    // Reading one production returns the full files.
    const one = await me.read(b.id);
    expect(one.production.brief.code[0]).toMatchObject({ source: BRIEF.code![0]!.source, patch: BRIEF.code![0]!.patch, sourceOmitted: false });
  });

  it('answers 404 for an unknown production or one in a workspace the caller cannot see; 400 for a bad id', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    const stranger = await caller(stack, database.db);
    const { production } = await json(await stranger.create());
    for (const path of [`/v1/productions/${production.id}`, `/v1/productions/${crypto.randomUUID()}`]) {
      const res = await me.call(path);
      expect(res.status).toBe(404);
      expect((await json(res)).code).toBe('not_found');
    }
    expect((await me.call(`/v1/productions/${production.id}/greenlight`, { json: {} })).status).toBe(404);
    expect((await me.call('/v1/productions/not-a-uuid')).status).toBe(400);
  });

  it('GET /usage answers this month\'s usage and pitch cap', async ({ stack, database }) => {
    const me = await caller(stack, database.db, 50);
    const { production } = await json(await me.create());
    await me.reach(production.id, 'pitch_ready');
    await me.call(`/v1/productions/${production.id}/greenlight`, { json: {} });
    const { usage } = await json(await me.call('/v1/productions/usage'));
    expect(usage).toEqual({
      month: new Date().toISOString().slice(0, 7),
      pitches: { used: 1, cap: 100 },
      credits: { balance: 40, charged: 10, refunded: 0 },
      productions: { created: 1, delivered: 0 },
    });
  });
});

describe('greenlight, comments, decline and cancel', () => {
  it('greenlight charges once and queues the video; refusals change nothing', async ({ stack, database }) => {
    const me = await caller(stack, database.db, 15);
    const { production } = await json(await me.create());
    await me.reach(production.id, 'pitch_ready');
    expect((await me.call(`/v1/productions/${production.id}/greenlight`, { json: { pitchVersion: 2 } })).status).toBe(409);

    const res = await me.call(`/v1/productions/${production.id}/greenlight`, { json: { pitchVersion: 1 } });
    expect(res.status).toBe(200);
    const greenlit = (await json(res)).production;
    expect(['greenlit', 'making']).toContain(greenlit.stage);
    expect(greenlit).toMatchObject({ creditsCharged: 10, greenlight: { mode: 'manual', actor: `key:${me.keyId}`, pitchVersion: 1 } });
    expect(greenlit.projectId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await balance(database.db, me.account.id)).toBe(5);

    const again = await me.call(`/v1/productions/${production.id}/greenlight`, { method: 'POST' });
    expect(again.status).toBe(409);
    expect((await json(again)).code).toBe('stage');
    expect(await balance(database.db, me.account.id)).toBe(5);
  });

  it('greenlight without the credits is 402 and the pitch stands; greenlight of a declined pitch is 409 stage', async ({ stack, database }) => {
    const me = await caller(stack, database.db, 10);
    const { production } = await json(await me.create());
    await me.reach(production.id, 'pitch_ready');
    await database.db.creditEntry.create({ data: { accountId: me.account.id, kind: 'grant', amount: -1, note: 'spent elsewhere' } });
    const poor = await me.call(`/v1/productions/${production.id}/greenlight`, { method: 'POST' });
    expect(poor.status).toBe(402);
    expect((await json(poor)).code).toBe('credits');
    expect((await me.read(production.id)).production.stage).toBe('pitch_ready');

    await me.call(`/v1/productions/${production.id}/decline`, { method: 'POST' });
    const late = await me.call(`/v1/productions/${production.id}/greenlight`, { method: 'POST' });
    expect(late.status).toBe(409);
    expect((await json(late)).code).toBe('stage');
  });

  it('comments write the next pitch version: 200 writing_pitch, three rounds, then 409 revisions', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    const { production } = await json(await me.create());
    for (const [round, comment] of ['Make it punchier', 'Mention the streaming encoder', 'Drop the intro'].entries()) {
      await waitFor(async () => (await me.read(production.id)).production.pitch?.version === round + 1 || undefined);
      await me.reach(production.id, 'pitch_ready');
      const res = await me.call(`/v1/productions/${production.id}/comments`, { json: { comment, pitchVersion: round + 1 } });
      expect(res.status).toBe(200);
      const body = (await json(res)).production;
      expect(body.stage).toBe('writing_pitch');
      expect(body.revisionsLeft).toBe(2 - round);
    }
    await waitFor(async () => (await me.read(production.id)).production.pitch?.version === 4 || undefined);
    const ready = await me.reach(production.id, 'pitch_ready');
    expect(ready.events.filter((e: { kind: string }) => e.kind === 'comment').map((e: { payload: { comment: string } }) => e.payload.comment))
      .toEqual(['Make it punchier', 'Mention the streaming encoder', 'Drop the intro']);
    const more = await me.call(`/v1/productions/${production.id}/comments`, { json: { comment: 'One more?' } });
    expect(more.status).toBe(409);
    expect((await json(more)).code).toBe('revisions');
    for (const body of [{}, { comment: '' }, { comment: ' \n\t ' }, { comment: 'x'.repeat(4001) }]) {
      expect((await me.call(`/v1/productions/${production.id}/comments`, { json: body })).status).toBe(400);
    }
  });

  it('decline before greenlight; after greenlight decline is 409 stage; a too long reason is 400', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    const a = (await json(await me.create())).production;
    await me.reach(a.id, 'pitch_ready');
    expect((await me.call(`/v1/productions/${a.id}/decline`, { json: { reason: 'x'.repeat(1001) } })).status).toBe(400);
    const declined = await me.call(`/v1/productions/${a.id}/decline`, { json: { reason: 'Not this release' } });
    expect(declined.status).toBe(200);
    expect((await json(declined)).production).toMatchObject({ stage: 'declined', terminal: true });

    const b = (await json(await me.create())).production;
    await me.reach(b.id, 'pitch_ready');
    await me.call(`/v1/productions/${b.id}/greenlight`, { method: 'POST' });
    const late = await me.call(`/v1/productions/${b.id}/decline`, { method: 'POST' });
    expect(late.status).toBe(409);
    expect((await json(late)).code).toBe('stage');
  });

  it('cancel refunds a charge in full; a terminal production answers 409 stage', async ({ stack, database }) => {
    const me = await caller(stack, database.db, 100);
    const { production } = await json(await me.create());
    await me.reach(production.id, 'pitch_ready');
    await me.call(`/v1/productions/${production.id}/greenlight`, { method: 'POST' });
    await me.reach(production.id, 'making');
    const res = await me.call(`/v1/productions/${production.id}/cancel`, { json: { reason: 'Wrong release' } });
    expect(res.status).toBe(200);
    expect((await json(res)).production).toMatchObject({ stage: 'cancelled', terminal: true });
    expect(await balance(database.db, me.account.id)).toBe(100);
    const again = await me.call(`/v1/productions/${production.id}/cancel`, { method: 'POST' });
    expect(again.status).toBe(409);
    expect((await json(again)).code).toBe('stage');
  });

  it('answers 503 with Retry-After and no code when Temporal cannot be reached; the pitch stands', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    const { production } = await json(await me.create());
    await me.reach(production.id, 'pitch_ready');
    const app = appOverTemporal(stack, database.db, unreachableTemporal());
    for (const [action, body] of [['greenlight', { pitchVersion: 1 }], ['comments', { comment: 'Shorter' }], ['decline', {}], ['cancel', {}]] as const) {
      const res = await app.request(`/v1/productions/${production.id}/${action}`, withKey(me.apiKey, { json: body }));
      expect(res.status, action).toBe(503);
      expect(res.headers.get('retry-after'), action).toBe('10');
      expect(await json(res), action).toEqual({ error: UNCONFIRMED_CHANGE });
    }
    expect((await me.read(production.id)).production.stage).toBe('pitch_ready');
    expect(await balance(database.db, me.account.id)).toBe(1000);
  });

  it('answers 503 when the production does not answer within the deadline; the greenlight is taken all the same once it can be', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    const { production } = await json(await me.create());
    await me.reach(production.id, 'pitch_ready');
    const impatient = appOverTemporal({ ...stack, config: { ...stack.config, temporal: { ...stack.config.temporal, updateDeadlineMs: 1000 } } }, database.db, stack.temporal.client);
    // The greenlight's step waits for a lock another transaction holds on the production's row.
    const holder = await sqlPool(database.db).connect();
    await holder.query('BEGIN');
    await holder.query('SELECT 1 FROM productions WHERE id = $1 FOR UPDATE', [production.id]);
    try {
      const res = await impatient.request(`/v1/productions/${production.id}/greenlight`, withKey(me.apiKey, { json: {} }));
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('10');
      expect(await json(res)).toEqual({ error: UNCONFIRMED_CHANGE });
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
    // Read again, as the answer says: the greenlight went through once the row was free.
    const greenlit = await me.reach(production.id, 'making');
    expect(greenlit.production.creditsCharged).toBe(10);
  });

  it('auto mode greenlights as soon as the pitch lands', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    const { production } = await json(await me.create({ brief: BRIEF, greenlightMode: 'auto' }));
    expect(production.greenlightMode).toBe('auto');
    const making = await me.reach(production.id, 'making');
    expect(making.production.greenlight).toMatchObject({ mode: 'auto', actor: 'auto', actorName: 'Auto-greenlight', pitchVersion: 1 });
  });
});

describe('workspaces (DECISIONS: roles)', () => {
  it('targets a shared workspace by workspaceId; viewers read but get 403 forbidden on writes; strangers get 404', async ({ stack, database }) => {
    const owner = await caller(stack, database.db);
    const editor = await caller(stack, database.db);
    const viewer = await caller(stack, database.db);
    const stranger = await caller(stack, database.db);
    const team = await createWorkspace(database.db, { ownerId: owner.account.id, name: 'Team' });
    await setMember(database.db, { workspaceId: team.id, accountId: editor.account.id, role: 'editor' });
    await setMember(database.db, { workspaceId: team.id, accountId: viewer.account.id, role: 'viewer' });

    const created = await editor.create({ brief: BRIEF, workspaceId: team.id });
    expect(created.status).toBe(201);
    const { production } = await json(created);
    expect(production.workspaceId).toBe(team.id);
    // Credits belong to the workspace owner's account.
    await editor.reach(production.id, 'pitch_ready');
    await editor.call(`/v1/productions/${production.id}/greenlight`, { method: 'POST' });
    expect(await balance(database.db, owner.account.id)).toBe(990);
    expect(await balance(database.db, editor.account.id)).toBe(1000);

    expect((await viewer.call(`/v1/productions?workspaceId=${team.id}`)).status).toBe(200);
    expect((await viewer.call(`/v1/productions/${production.id}`)).status).toBe(200);
    const write = await viewer.create({ brief: BRIEF, workspaceId: team.id });
    expect(write.status).toBe(403);
    expect((await json(write)).code).toBe('forbidden');
    expect((await json(await viewer.call(`/v1/productions/${production.id}/cancel`, { json: {} }))).code).toBe('forbidden');

    for (const res of [await stranger.call(`/v1/productions?workspaceId=${team.id}`), await stranger.create({ brief: BRIEF, workspaceId: team.id })]) {
      expect(res.status).toBe(404);
      expect((await json(res)).code).toBe('not_found');
    }
  });
});
