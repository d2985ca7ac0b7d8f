import { Client } from '@temporalio/client';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { Delivery, PHASES, workflowIds, type BriefInput, type Stage } from '@vp/contracts';
import { balance } from '@vp/ledger';
import { exportKeys, finishExport, MAX_EXPORTS_UNDER_WAY, MAX_PROJECT_VERSIONS, sharePosterUrl, shareUrl, shareVideoUrl } from '@vp/projects';
import { framesAt, shareNear } from '@vp/render/testing';
import { failWrites, seedAccount, test, waitFor } from '@vp/testing';
import { startReceiver, type Receiver } from '@vp/webhooks/testing';
import { makeImage, probe, startMediaServer } from '@vp/gateway/testing/media';
import { appOverTemporal, json, withKey } from '@vp/gateway/testing';
import { createTestStack } from '../stack.ts';

type Stack = Awaited<ReturnType<typeof createTestStack>>;

let receiver: Receiver;
let media: Awaited<ReturnType<typeof startMediaServer>>;
beforeAll(async () => {
  receiver = await startReceiver();
  const dashboard = { type: 'image/png', body: await makeImage('png', '1280x720') };
  media = await startMediaServer({
    '/dashboard.png': dashboard,
    '/release.png': { type: 'image/png', body: await makeImage('png', '1024x768') },
    // Busy for a moment (503 once, then the picture), or down for good (503 every time).
    '/flaky.png': [{ status: 503 }, dashboard],
    '/down.png': { status: 503 },
  });
});
afterAll(async () => {
  await receiver.close();
  await media.close();
});

const it = test.extend('stack', { scope: 'file' }, async ({ database }, { onCleanup }) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'vp-delivery-'));
  const stack = await createTestStack(database, {
    // The media tests count the render's fetches: no stills fetching them too (storyboard.test.ts has those).
    render: true, storyboard: false,
    // Behind a trusted proxy: a test posting pages' forms comes from an address of its own.
    env: { DATA_DIR: dataDir, ALLOW_PRIVATE_URLS: 'true', RENDER_HEARTBEAT_TIMEOUT_MS: '20000', TRUST_PROXY: 'true' },
    worker: { webhookTransport: { ca: receiver.ca } },
  });
  onCleanup(async () => {
    await stack.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  return stack;
});

const RENDER = { timeoutMs: 150_000, intervalMs: 200 };

/** Waits for the discarding of a video its production did not deliver: started as that production's workflow ends. */
async function discarded(stack: Stack, exportId: string) {
  const handle = stack.temporal.client.workflow.getHandle(workflowIds.discardVideo(exportId));
  await waitFor(() => handle.describe().then(() => true, () => false), { what: 'the video to be discarded' });
  await handle.result();
}

/** An account with 100 credits making 5-second videos through the API. */
async function client(stack: Stack, db: Parameters<typeof seedAccount>[0]) {
  const seeded = await seedAccount(db, { credits: 100 });
  const call = (path: string, init: { method?: string; json?: unknown } = {}) => stack.app.request(path, withKey(seeded.apiKey, init));
  const read = async (id: string) => json(await call(`/v1/productions/${id}`));
  const reach = (id: string, stage: Stage, options: { timeoutMs?: number; intervalMs?: number; onRead?: (body: Awaited<ReturnType<typeof read>>) => void } = {}) =>
    waitFor(async () => {
      const body = await read(id);
      options.onRead?.(body);
      return body.production.stage === stage ? body : undefined;
    }, { what: `stage ${stage}`, ...options });
  /** Creates a production from the brief and greenlights its first pitch. */
  const greenlit = async (brief: BriefInput) => {
    const { production } = await json(await call('/v1/productions', { json: { brief: { format: { durationMs: 5000 }, ...brief } } }));
    const ready = await reach(production.id, 'pitch_ready');
    expect((await call(`/v1/productions/${production.id}/greenlight`, { json: {} })).status).toBe(200);
    return ready.production;
  };
  /** A greenlit production whose pitch shows one picture of the media server, `/<id>.png`. */
  const greenlitShowing = async (picture: { id: string; name: string }) => {
    const production = await greenlit({
      intent: 'Show off the new dashboard in release 2.4',
      media: [{ ...picture, kind: 'image', url: `${media.url}/${picture.id}.png` }],
    });
    expect(production.pitch.shots.some((s: { mediaIds: string[] }) => s.mediaIds.includes(picture.id))).toBe(true);
    return production;
  };
  return { ...seeded, call, read, reach, greenlit, greenlitShowing };
}

/** A GET of one of the service's own addresses (share, project and file links are absolute). */
const get = (stack: Stack, url: string, headers: Record<string, string> = {}) => stack.app.request(new URL(url).pathname, { headers });

/**
 * Everything public about a production's project that is not delivered: its page, a re-export
 * of its version 1, and the share page, video and poster of its delivery export. 404 for each.
 */
async function expectNothingPublic(stack: Stack, projectId: string, exportId: string) {
  const appUrl = stack.config.appUrl;
  expect((await get(stack, `${appUrl}/projects/${projectId}`, { accept: 'text/html' })).status).toBe(404);
  const page = await get(stack, `${appUrl}/projects/${projectId}`);
  expect(page.status).toBe(404);
  expect(await json(page)).toMatchObject({ code: 'not_found' });
  const reexport = await stack.app.request(`/projects/${projectId}/versions/1/exports`, { method: 'POST' });
  expect(reexport.status).toBe(404);
  expect(await json(reexport)).toMatchObject({ code: 'not_found' });
  for (const url of [shareUrl, shareVideoUrl, sharePosterUrl]) expect((await get(stack, url(appUrl, exportId))).status).toBe(404);
}

describe('a greenlit production', () => {
  let made: Promise<{ id: string; delivery: Delivery; title: string; me: Awaited<ReturnType<typeof client>>; queues: unknown[] }> | null = null;
  /** One production, made once for the tests of this group. */
  function delivered(stack: Stack, db: Parameters<typeof seedAccount>[0]) {
    made ??= (async () => {
      const me = await client(stack, db);
      const hook = await json(await me.call('/v1/webhooks', { json: { url: `${receiver.url}-progress`, events: ['production.progress', 'production.delivered'] } }));
      expect(hook.endpoint.events).toEqual(['production.progress', 'production.delivered']);
      const production = await me.greenlit({
        intent: 'Show off the new dashboard in release 2.4',
        media: [{ id: 'dashboard', kind: 'image', url: `${media.url}/dashboard.png`, name: 'Dashboard' }],
      });
      const queues: unknown[] = [];
      const done = await me.reach(production.id, 'delivered', { ...RENDER, onRead: (body) => body.queue && queues.push(body.queue) });
      return { id: production.id, delivery: done.production.delivery, title: production.pitch.title, me, queues };
    })();
    return made;
  }

  it('is made by a real render worker and delivered with every delivery field, charged once', async ({ stack, database }) => {
    const { id, delivery, me, queues } = await delivered(stack, database.db);
    const { production, events, queue } = await me.read(id);
    expect(Delivery.parse(delivery)).toEqual(delivery);
    expect(delivery).toEqual({
      shareUrl: `${stack.config.appUrl}/share/${delivery.exportId}`,
      projectId: production.projectId,
      editUrl: `${stack.config.appUrl}/projects/${production.projectId}`,
      // Random (version 4): the share address cannot be worked out from the production's id.
      exportId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      deliveredAt: expect.any(String),
    });
    expect(production).toMatchObject({ stage: 'delivered', terminal: true, error: null, creditsCharged: 5 });
    expect(queue).toBeNull();
    expect(await balance(database.db, me.account.id)).toBe(95);
    expect(await database.db.creditEntry.count({ where: { productionId: id } })).toBe(1);

    // The timeline: making, one note per phase in order, exporting, delivered.
    const kinds = events.map((e: { kind: string; payload: { stage?: string } }) => (e.kind === 'stage' ? `stage:${e.payload.stage}` : e.kind));
    expect(kinds.slice(kinds.indexOf('greenlit'))).toEqual([
      'greenlit', 'stage:making', 'note', 'note', 'note', 'note', 'note', 'stage:exporting', 'note', 'delivered',
    ]);
    const notes = events.filter((e: { kind: string }) => e.kind === 'note');
    expect(notes.map((n: { payload: unknown }) => n.payload)).toEqual(PHASES.map((phase) => ({ phase })));
    expect(notes.every((n: { actor: string }) => n.actor === 'system')).toBe(true);
    // Only the fields the spec names for a reader: the delivery itself is on the production.
    expect(events.find((e: { kind: string }) => e.kind === 'delivered').payload).toEqual({ stage: 'delivered' });

    // The queue status as a client polling saw it: phases with words, never retrying.
    expect(queues.length).toBeGreaterThan(0);
    for (const seen of queues) {
      expect(seen).toMatchObject({ retrying: false });
      const { phase, startedAt, lastProgress } = seen as { phase: string | null; startedAt: string | null; lastProgress: string | null };
      if (phase) expect(PHASES).toContain(phase);
      if (phase) expect(lastProgress).toMatch(/\w+/);
      if (phase) expect(Number.isNaN(Date.parse(startedAt!))).toBe(false);
    }

    // production.progress to the subscribed endpoint: work starts, then each phase; then the delivery.
    const path = new URL(`${receiver.url}-progress`).pathname;
    const types = () => receiver.received.filter((r) => r.path === path).map((r) => JSON.parse(r.body) as { type: string; data: { status: string } });
    await waitFor(() => types().some((e) => e.type === 'production.delivered'), { what: 'the delivered event' });
    const progress = types().filter((e) => e.type === 'production.progress');
    expect(progress).toHaveLength(1 + PHASES.length);
    expect(progress[0]!.data.status).toBe('Work on the video has started.');
    expect(progress.at(-1)!.data.status).toBe('Exporting the finished video.');
  }, 180_000);

  it('has a public share page that plays the video with its poster frame, titled from the pitch', async ({ stack, database }) => {
    const { delivery, title } = await delivered(stack, database.db);
    const page = await get(stack, delivery.shareUrl, { accept: 'text/html' });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    const escaped = title.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
    expect(html).toContain(`<h1>${escaped}</h1>`);
    expect(html).toContain(`poster="${delivery.shareUrl}/poster.jpg"`);
    expect(html).toContain(`<source src="${delivery.shareUrl}/video.mp4" type="video/mp4">`);

    const poster = await get(stack, `${delivery.shareUrl}/poster.jpg`);
    expect(poster.status).toBe(200);
    expect(poster.headers.get('content-type')).toBe('image/jpeg');
    expect([...new Uint8Array(await poster.arrayBuffer()).subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);

    expect((await get(stack, `${stack.config.appUrl}/share/${crypto.randomUUID()}`, { accept: 'text/html' })).status).toBe(404);
    const missing = await get(stack, `${stack.config.appUrl}/share/not-an-id/video.mp4`);
    expect(missing.status).toBe(404);
    expect(await json(missing)).toMatchObject({ code: 'not_found' });
  }, 180_000);

  it('serves the video with byte ranges, validators and caching', async ({ stack, database }) => {
    const { delivery } = await delivered(stack, database.db);
    const url = `${delivery.shareUrl}/video.mp4`;
    const whole = await get(stack, url);
    expect(whole.status).toBe(200);
    const bytes = new Uint8Array(await whole.arrayBuffer());
    const size = bytes.length;
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(whole.headers.get('content-length')).toBe(String(size));
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const etag = whole.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);

    expect(await probe(bytes)).toMatchObject({ width: 1920, height: 1080, codec: 'h264', fps: '30/1', audio: 'aac' });
    expect(Math.abs((await probe(bytes)).durationMs - 5000)).toBeLessThanOrEqual(34);

    const first = await get(stack, url, { range: 'bytes=0-99' });
    expect(first.status).toBe(206);
    expect(first.headers.get('content-range')).toBe(`bytes 0-99/${size}`);
    expect(first.headers.get('content-length')).toBe('100');
    expect(first.headers.get('x-content-type-options')).toBe('nosniff');
    expect(new Uint8Array(await first.arrayBuffer())).toEqual(bytes.subarray(0, 100));

    const tail = await get(stack, url, { range: 'bytes=-10' });
    expect(tail.status).toBe(206);
    expect(tail.headers.get('content-range')).toBe(`bytes ${size - 10}-${size - 1}/${size}`);
    expect(new Uint8Array(await tail.arrayBuffer())).toEqual(bytes.subarray(size - 10));

    const open = await get(stack, url, { range: `bytes=${size - 5}-` });
    expect(open.status).toBe(206);
    expect((await open.arrayBuffer()).byteLength).toBe(5);

    const beyond = await get(stack, url, { range: `bytes=${size}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${size}`);
    expect(await json(beyond)).toMatchObject({ code: 'range_not_satisfiable', error: expect.any(String) });

    // Several ranges, or an If-Range for another version: the whole file.
    expect((await get(stack, url, { range: 'bytes=0-1,5-6' })).status).toBe(200);
    expect((await get(stack, url, { range: 'bytes=0-1', 'if-range': '"another"' })).status).toBe(200);
    expect((await get(stack, url, { range: 'bytes=0-1', 'if-range': etag })).status).toBe(206);

    const unchanged = await get(stack, url, { 'if-none-match': etag });
    expect(unchanged.status).toBe(304);
    expect(unchanged.headers.get('etag')).toBe(etag);
    // The other validators: a weak twin of the tag, the date, and If-Range by date.
    const lastModified = unchanged.headers.get('last-modified')!;
    expect((await get(stack, url, { 'if-none-match': `"x", W/${etag}` })).status).toBe(304);
    expect((await get(stack, url, { 'if-modified-since': lastModified })).status).toBe(304);
    expect((await get(stack, url, { 'if-modified-since': new Date(Date.parse(lastModified) - 1000).toUTCString() })).status).toBe(200);
    expect((await get(stack, url, { 'if-none-match': '"another"', 'if-modified-since': lastModified })).status).toBe(200);
    expect((await get(stack, url, { range: 'bytes=0-1', 'if-range': lastModified })).status).toBe(206);
    expect((await get(stack, url, { range: 'bytes=0-1', 'if-range': new Date(0).toUTCString() })).status).toBe(200);

    const head = await stack.app.request(new URL(url).pathname, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(size));
  }, 180_000);

  it('opens the editable project: its composition and versions, and a re-export made by the render farm', async ({ stack, database }) => {
    const { delivery, title } = await delivered(stack, database.db);
    const page = await get(stack, delivery.editUrl, { accept: 'text/html' });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Version 1');
    expect(html).toContain('1920×1080');
    expect(html).toContain(`${stack.config.appUrl}/share/${delivery.exportId}`);
    expect(html).toContain('The composition (JSON)');
    const project = await database.db.project.findUniqueOrThrow({ where: { id: delivery.projectId }, include: { versions: true } });
    expect(project).toMatchObject({ title, versions: [{ version: 1 }] });
    expect(project.versions[0]!.composition).toMatchObject({ width: 1920, height: 1080, durationMs: 5000 });

    const reexport = () => stack.app.request(`${new URL(delivery.editUrl).pathname}/versions/1/exports`, { method: 'POST' });
    // One export of a version at a time, however many ask at once.
    const answers = await Promise.all([reexport(), reexport(), reexport()]);
    expect(answers.map((r) => [r.status, r.headers.get('location')])).toEqual(Array(3).fill([303, delivery.editUrl]));
    expect((await reexport()).status).toBe(303);
    const exports = await database.db.export.findMany({ where: { projectId: delivery.projectId }, orderBy: { createdAt: 'asc' } });
    expect(exports.map((e) => e.id)).toHaveLength(2);
    const again = exports[1]!;
    expect(again.id).not.toBe(delivery.exportId);
    await waitFor(async () => (await database.db.export.findUniqueOrThrow({ where: { id: again.id } })).status === 'done', { what: 'the re-export', ...RENDER });
    const video = await get(stack, `${stack.config.appUrl}/share/${again.id}/video.mp4`);
    expect(video.status).toBe(200);
    expect(await probe(new Uint8Array(await video.arrayBuffer()))).toMatchObject({ width: 1920, height: 1080 });
    expect(await (await get(stack, delivery.editUrl, { accept: 'text/html' })).text()).toContain(`/share/${again.id}`);

    expect((await get(stack, `${stack.config.appUrl}/projects/${crypto.randomUUID()}`, { accept: 'text/html' })).status).toBe(404);
  }, 180_000);

  it('starts a queued re-export whose workflow never started (the gateway stopped right after queueing it) when asked again', async ({ stack, database }) => {
    const { delivery } = await delivered(stack, database.db);
    const stranded = await database.db.export.create({ data: { id: crypto.randomUUID(), projectId: delivery.projectId, version: 1 } });
    const reexport = await stack.app.request(`${new URL(delivery.editUrl).pathname}/versions/1/exports`, { method: 'POST' });
    expect(reexport.status).toBe(303);
    await waitFor(async () => (await database.db.export.findUniqueOrThrow({ where: { id: stranded.id } })).status === 'done', { what: 'the stranded re-export', ...RENDER });
    // It was made; no second export of the version was queued beside it.
    expect(await database.db.export.count({ where: { projectId: delivery.projectId, version: 1, status: { not: 'done' } } })).toBe(0);
  }, 180_000);

  it('keeps a re-export the render farm could not be reached for queued, says so, and starts that one when asked again', async ({ stack, database }) => {
    const { delivery } = await delivered(stack, database.db);
    const path = `${new URL(delivery.editUrl).pathname}/versions/1/exports`;
    // The gateway over a Temporal namespace that does not exist: the start is refused.
    const refusing = appOverTemporal(stack, database.db, new Client({ connection: stack.temporal.client.connection, namespace: 'no-such-namespace' }));
    const exportsBefore = await database.db.export.count({ where: { projectId: delivery.projectId } });
    expect((await refusing.request(path, { method: 'POST' })).status).toBe(303);
    const stuck = await database.db.export.findFirstOrThrow({ where: { projectId: delivery.projectId, status: { not: 'done' } } });
    expect(stuck).toMatchObject({ status: 'queued', error: expect.stringMatching(/^Not started: the render farm could not be reached/) });
    const page = await (await get(stack, delivery.editUrl, { accept: 'text/html' })).text();
    expect(page).toContain('Not started: the render farm could not be reached');
    expect(page).not.toContain('http-equiv="refresh"'); // nothing to follow until asked again
    // Asked again with the render farm back: that export is started, not another beside it.
    expect((await stack.app.request(path, { method: 'POST' })).status).toBe(303);
    // Started: the note is gone at once, and the page follows the export again.
    expect(await database.db.export.findUniqueOrThrow({ where: { id: stuck.id } })).toMatchObject({ error: null });
    await waitFor(async () => (await database.db.export.findUniqueOrThrow({ where: { id: stuck.id } })).status === 'done', { what: 'the re-export', ...RENDER });
    expect(await database.db.export.count({ where: { projectId: delivery.projectId } })).toBe(exportsBefore + 1);
  }, 180_000);
});

/** The fields a browser sends for the edit page's form, as the page fills them in. */
function fieldsOf(page: string): Record<string, string> {
  const text = (html: string) => html.replace(/&(lt|gt|quot|#39|amp);/g, (_, name: string) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' })[name]!);
  const start = page.indexOf('<form method="post"');
  const form = page.slice(start, page.indexOf('</form>', start));
  const fields: Record<string, string> = {};
  for (const [, name, value] of form.matchAll(/<input[^>]*\bname="([^"]+)"[^>]*\bvalue="([^"]*)"/g)) fields[name!] = text(value!);
  for (const [, name, value] of form.matchAll(/<textarea[^>]*\bname="([^"]+)"[^>]*>([^<]*)<\/textarea>/g)) fields[name!] = text(value!).replace(/\n/g, '\r\n');
  for (const [, name, options] of form.matchAll(/<select[^>]*\bname="([^"]+)"[^>]*>(.*?)<\/select>/gs)) fields[name!] = /<option selected>([^<]*)</.exec(options!)![1]!;
  // A ticked checkbox is sent as `on`; one not ticked, not at all.
  for (const [, name] of form.matchAll(/<input[^>]*\bname="([^"]+)"[^>]*\btype="checkbox" checked>/g)) fields[name!] = 'on';
  return fields;
}

describe('an edit of a delivered production\'s project', () => {
  type Stored = {
    durationMs: number; brand: { backgroundColor: string; textColor: string };
    scenes: { id: string; title: string | null; durationMs: number; startMs: number }[];
    audio: { music: { gainDb: number } | null };
    media: { id: string; url: string }[];
  };
  let addresses = 0;
  /** Posts the edit form of a project from an address of its own, as a person would (30 a minute each). */
  const editor = (stack: Stack, path: string) => {
    const from = { 'x-forwarded-for': `203.0.113.${++addresses}` };
    const request = (init: RequestInit & { headers: Record<string, string> }) => stack.app.request(`${path}/versions`, { ...init, method: 'POST', headers: { ...from, ...init.headers } });
    const save = (fields: Record<string, string>, headers: Record<string, string> = { accept: 'text/html' }) =>
      request({ headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(fields).toString() });
    return Object.assign(save, { request });
  };
  const versionOf = async (db: Parameters<typeof seedAccount>[0], projectId: string, version: number) =>
    (await db.projectVersion.findUniqueOrThrow({ where: { projectId_version: { projectId, version } } })).composition as Stored;
  const exportsDone = (db: Parameters<typeof seedAccount>[0], projectId: string) =>
    waitFor(async () => (await db.export.count({ where: { projectId, status: { not: 'done' } } })) === 0, { what: 'every export', ...RENDER });
  const editPage = async (stack: Stack, editUrl: string) => {
    const page = await get(stack, `${editUrl}/edit`, { accept: 'text/html' });
    expect(page.status).toBe(200);
    return page.text();
  };

  it('is saved as the next version and exported: the new video shows the change', async ({ stack, database }) => {
    const me = await client(stack, database.db);
    const production = await me.greenlit({ intent: 'Announce release 2.5' });
    const { delivery } = (await me.reach(production.id, 'delivered', RENDER)).production;
    const save = editor(stack, new URL(delivery.editUrl).pathname);
    expect(await (await get(stack, delivery.editUrl, { accept: 'text/html' })).text()).toContain(`href="${delivery.editUrl}/edit"`);
    const page = await editPage(stack, delivery.editUrl);
    expect(page).toContain('name="baseVersion" value="1"');
    expect(page).toContain('name="scenes.0.title"');
    expect(page).toContain('Save as version 2 and export it');
    const first = await versionOf(database.db, delivery.projectId, 1);

    const saved = await save({ baseVersion: '1', 'scenes.0.title': 'Release 2.5 is out', 'brand.backgroundColor': '#F4F1E8' });
    expect([saved.status, saved.headers.get('location')]).toEqual([303, delivery.editUrl]);
    const second = await versionOf(database.db, delivery.projectId, 2);
    // A light background: the text turns dark, so that it stays readable.
    expect(second).toMatchObject({ durationMs: first.durationMs, brand: { backgroundColor: '#f4f1e8', textColor: expect.not.stringMatching(first.brand.textColor) } });
    expect(second.scenes.map((s) => s.title)).toEqual(first.scenes.map((s, i) => (i === 0 ? 'Release 2.5 is out' : s.title)));
    // The project's page follows the export; the edit page never reloads under a person typing.
    expect(await (await get(stack, delivery.editUrl, { accept: 'text/html' })).text()).toContain('http-equiv="refresh"');
    expect(await editPage(stack, delivery.editUrl)).not.toContain('http-equiv="refresh"');

    const made = await database.db.export.findFirstOrThrow({ where: { projectId: delivery.projectId, version: 2 } });
    await waitFor(async () => (await database.db.export.findUniqueOrThrow({ where: { id: made.id } })).status === 'done', { what: 'the export of version 2', ...RENDER });
    const video = new Uint8Array(await (await get(stack, `${stack.config.appUrl}/share/${made.id}/video.mp4`)).arrayBuffer());
    const probed = await probe(video);
    expect(probed).toMatchObject({ width: 1920, height: 1080 });
    expect(Math.abs(probed.durationMs - first.durationMs)).toBeLessThanOrEqual(34); // within a frame
    const dir = await mkdtemp(join(tmpdir(), 'vp-edit-'));
    try {
      await writeFile(join(dir, 'v2.mp4'), video);
      const [title] = await framesAt(join(dir, 'v2.mp4'), [second.scenes[0]!.durationMs / 2], { width: 1920, height: 1080 });
      expect(shareNear(title!, '#f4f1e8')).toBeGreaterThan(0.2);
      expect(shareNear(title!, first.brand.backgroundColor)).toBeLessThan(0.02);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    const after = await (await get(stack, delivery.editUrl, { accept: 'text/html' })).text();
    expect(after).toContain('Version 2');
    expect(after).toContain(`/share/${made.id}`);
    const secondPage = fieldsOf(await editPage(stack, delivery.editUrl));
    expect(secondPage).toMatchObject({
      baseVersion: '2', 'scenes.0.position': '1', 'scenes.1.position': '2', 'music.bed': 'on', 'music.gainDb': String(second.audio.music!.gainDb),
    });

    // The page sent back with the second scene moved first and the music switched off.
    expect((await save({ ...secondPage, 'scenes.1.position': '1', 'music.bed': 'off' })).status).toBe(303);
    const third = await versionOf(database.db, delivery.projectId, 3);
    const ids = second.scenes.map((s) => s.id);
    expect(third.scenes.map((s) => s.id)).toEqual([ids[1], ids[0], ...ids.slice(2)]);
    expect(third.durationMs).toBe(second.durationMs);
    expect(third.audio.music).toBeNull();
    // Off, its level is left empty; switched on again, the bed comes back as version 1 had it.
    expect(fieldsOf(await editPage(stack, delivery.editUrl))).toMatchObject({ 'music.bed': 'off', 'music.gainDb': '' });
    expect((await save({ baseVersion: '3', 'music.bed': 'on' })).status).toBe(303);
    expect((await versionOf(database.db, delivery.projectId, 4)).audio.music).toEqual(first.audio.music);
    await exportsDone(database.db, delivery.projectId);
  }, 300_000);

  it('takes another address for a medium, fetched when that version is exported; one that cannot be used fails that export, saying why', async ({ stack, database }) => {
    const me = await client(stack, database.db);
    const production = await me.greenlitShowing({ id: 'dashboard', name: 'Dashboard' });
    const { delivery } = (await me.reach(production.id, 'delivered', RENDER)).production;
    const save = editor(stack, new URL(delivery.editUrl).pathname);
    const opened = fieldsOf(await editPage(stack, delivery.editUrl));
    expect(opened['media.0.url']).toBe(`${media.url}/dashboard.png`);

    const refused = await save({ ...opened, 'media.0.url': 'javascript:alert(1)' });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('Must be an http or https address.');

    expect((await save({ ...opened, 'media.0.url': ` ${media.url}/release.png ` })).status).toBe(303);
    expect((await versionOf(database.db, delivery.projectId, 2)).media).toEqual([{ id: 'dashboard', kind: 'image', name: 'Dashboard', url: `${media.url}/release.png` }]);
    await exportsDone(database.db, delivery.projectId);
    expect(media.hits('/release.png')).toBe(1);

    expect((await save({ ...fieldsOf(await editPage(stack, delivery.editUrl)), 'media.0.url': `${media.url}/missing.png` })).status).toBe(303);
    const third = await database.db.export.findFirstOrThrow({ where: { projectId: delivery.projectId, version: 3 } });
    await stack.temporal.client.workflow.getHandle(workflowIds.export(third.id)).result();
    const failed = await database.db.export.findUniqueOrThrow({ where: { id: third.id } });
    expect(failed.status).toBe('failed');
    expect(failed.error).toBe(`A media file could not be used: The image 'Dashboard' (${media.url}/missing.png) could not be downloaded: the server answered 404`);
    expect(await (await get(stack, delivery.editUrl, { accept: 'text/html' })).text()).toContain('could not be downloaded: the server answered 404');
    // The delivered video is the production's still.
    expect((await get(stack, delivery.shareUrl)).status).toBe(200);
  }, 300_000);

  it('refuses what cannot be saved, one save from a version at a time, and saves nothing half', async ({ stack, database }) => {
    const me = await client(stack, database.db);
    const production = await me.greenlit({ intent: 'Announce release 2.6' });
    const { delivery } = (await me.reach(production.id, 'delivered', RENDER)).production;
    const save = editor(stack, new URL(delivery.editUrl).pathname);
    const first = await versionOf(database.db, delivery.projectId, 1);
    const versions = () => database.db.projectVersion.count({ where: { projectId: delivery.projectId } });
    const openedAtVersion1 = fieldsOf(await editPage(stack, delivery.editUrl));

    // Every scene removed: the page again, each box still ticked.
    const emptied = await save({ ...openedAtVersion1, ...Object.fromEntries(first.scenes.map((_, i) => [`scenes.${i}.remove`, 'on'])) });
    expect(emptied.status).toBe(400);
    const emptiedPage = await emptied.text();
    expect(emptiedPage).toContain('The scenes: Keep at least one scene.');
    expect(Object.keys(fieldsOf(emptiedPage)).filter((name) => name.endsWith('.remove'))).toHaveLength(first.scenes.length);

    // Longer than the credits paid for: the page again, with what was typed and why.
    const longer = String(first.scenes[0]!.durationMs + 1000);
    const refused = await save({ baseVersion: '1', 'scenes.0.durationMs': longer, 'scenes.0.title': 'Typed <here>' });
    expect(refused.status).toBe(400);
    const page = await refused.text();
    expect(page).toContain('Nothing was saved');
    expect(page).toContain(`the video may last at most ${(first.durationMs / 1000).toFixed(1)} s, the length its credits paid for`);
    expect(page).toContain(`value="${longer}"`);
    expect(page).toContain('value="Typed &lt;here&gt;"');
    // A program gets the error shape, with every issue.
    const bad = await save({ baseVersion: '1', 'brand.backgroundColor': 'red', 'scenes.0.durationMs': '1.5', 'scenes.0.title': 'a\0b' }, {});
    expect(bad.status).toBe(400);
    expect((await json(bad)).issues.map((i: { path: string }) => i.path).sort()).toEqual(['brand.backgroundColor', 'scenes.0.durationMs', 'scenes.0.title']);
    for (const baseVersion of [undefined, '0', '9', 'one']) {
      const fields: Record<string, string> = baseVersion === undefined ? { 'scenes.0.title': 'No version' } : { baseVersion, 'scenes.0.title': 'No such version' };
      expect(await json(await save(fields, {}))).toMatchObject({ issues: [{ path: 'baseVersion' }] });
    }
    const asJson = await save.request({ headers: { 'content-type': 'application/json' }, body: '{"baseVersion":1}' });
    expect(asJson.status).toBe(415);
    const chunks = [new TextEncoder().encode(`baseVersion=1&scenes.0.text=${'x'.repeat(stack.config.http.bodyLimitBytes)}`)];
    const streamed = await save.request({
      headers: { 'content-type': 'application/x-www-form-urlencoded' }, duplex: 'half',
      body: new ReadableStream({ pull: (controller) => (chunks.length ? controller.enqueue(chunks.shift()!) : controller.close()) }),
    } as RequestInit & { headers: Record<string, string> });
    expect(streamed.status).toBe(413);
    expect(await versions()).toBe(1);

    // Two saves from version 1 at once: one is version 2, the other is told the project moved on.
    const answers = await Promise.all(['Mine', 'Theirs'].map((title) => save({ baseVersion: '1', 'scenes.0.title': title }, {})));
    expect(answers.map((a) => a.status).sort()).toEqual([303, 409]);
    expect(await json(answers.find((a) => a.status === 409)!)).toMatchObject({ code: 'stale' });
    expect(await versions()).toBe(2);
    const winner = (await versionOf(database.db, delivery.projectId, 2)).scenes[0]!.title;

    // A page opened at version 1 sends all its fields: only what it changed comes back, over version 2.
    const late = await save({ ...openedAtVersion1, 'scenes.1.title': 'Too late' });
    expect(late.status).toBe(409);
    const latePage = await late.text();
    expect(latePage).toContain('Another version was saved since this page was opened');
    const shown = fieldsOf(latePage);
    expect(shown).toMatchObject({ baseVersion: '2', 'scenes.0.title': winner, 'scenes.1.title': 'Too late' });
    expect(await database.db.export.count({ where: { projectId: delivery.projectId, version: 2 } })).toBe(1);
    // Sent again from there: version 3 has both changes; version 2's is not undone.
    expect((await save(shown)).status).toBe(303);
    expect((await versionOf(database.db, delivery.projectId, 3)).scenes.map((s) => s.title).slice(0, 2)).toEqual([winner, 'Too late']);

    // The form sent as the page has it, untouched: no new version; once the export of version 3
    // is done, that version is exported again.
    await exportsDone(database.db, delivery.projectId);
    const untouched = fieldsOf(await editPage(stack, delivery.editUrl));
    expect(untouched).toMatchObject({ baseVersion: '3', 'scenes.0.title': winner, 'brand.backgroundColor': expect.stringMatching(/^#/) });
    expect((await save(untouched)).status).toBe(303);
    expect(await versions()).toBe(3);
    expect(await database.db.export.count({ where: { projectId: delivery.projectId, version: 3 } })).toBe(2);
    await exportsDone(database.db, delivery.projectId);

    // A project keeps 50 versions: the 51st is refused, nothing saved.
    const newest = await database.db.projectVersion.findUniqueOrThrow({ where: { projectId_version: { projectId: delivery.projectId, version: 3 } } });
    await database.db.projectVersion.createMany({
      data: Array.from({ length: MAX_PROJECT_VERSIONS - 3 }, (_, i) => ({ projectId: delivery.projectId, version: 4 + i, composition: newest.composition as object })),
    });
    const full = await save({ baseVersion: String(MAX_PROJECT_VERSIONS), 'scenes.0.title': 'One more' }, {});
    expect([full.status, (await json(full)).code]).toEqual([409, 'limit']);
    expect(await versions()).toBe(MAX_PROJECT_VERSIONS);
    expect(await (await get(stack, delivery.editUrl, { accept: 'text/html' })).text()).toContain(`This project has ${MAX_PROJECT_VERSIONS} versions`);
  }, 300_000);

  it('saves a form sent twice at once (a double click) once, and answers both as saved', async ({ stack, database }) => {
    const me = await client(stack, database.db);
    const production = await me.greenlit({ intent: 'Announce release 2.7' });
    const { delivery } = (await me.reach(production.id, 'delivered', RENDER)).production;
    const save = editor(stack, new URL(delivery.editUrl).pathname);
    const twice = await Promise.all([0, 1].map(() => save({ baseVersion: '1', 'scenes.0.title': 'Clicked twice' })));
    expect(twice.map((r) => [r.status, r.headers.get('location')])).toEqual(Array(2).fill([303, delivery.editUrl]));
    expect(await database.db.projectVersion.count({ where: { projectId: delivery.projectId } })).toBe(2);
    expect(await database.db.export.count({ where: { projectId: delivery.projectId, version: 2 } })).toBe(1);
    expect((await versionOf(database.db, delivery.projectId, 2)).scenes[0]!.title).toBe('Clicked twice');
    // Another change from version 1 is still not saved over version 2.
    expect((await save({ baseVersion: '1', 'scenes.0.title': 'Something else' }, {})).status).toBe(409);
    await exportsDone(database.db, delivery.projectId);
  }, 180_000);

  it(`has at most ${MAX_EXPORTS_UNDER_WAY} exports under way: another save or re-export is refused until one is done, nothing saved`, async ({ stack, database }) => {
    const me = await client(stack, database.db);
    const production = await me.greenlit({ intent: 'Announce release 2.8' });
    const { delivery } = (await me.reach(production.id, 'delivered', RENDER)).production;
    const projectPath = new URL(delivery.editUrl).pathname;
    const save = editor(stack, projectPath);
    const reexport = (headers: Record<string, string> = {}) => stack.app.request(`${projectPath}/versions/1/exports`, { method: 'POST', headers });
    const versions = () => database.db.projectVersion.count({ where: { projectId: delivery.projectId } });
    expect((await save({ baseVersion: '1', 'scenes.0.title': 'Version 2' })).status).toBe(303);
    await exportsDone(database.db, delivery.projectId);

    // The render farm busy with two of its exports.
    const underWay = await Promise.all(Array.from({ length: MAX_EXPORTS_UNDER_WAY }, () =>
      database.db.export.create({ data: { id: crypto.randomUUID(), projectId: delivery.projectId, version: 2, status: 'rendering' } })));
    const refused = await save({ baseVersion: '2', 'scenes.0.title': 'Version 3' });
    expect(refused.status).toBe(409);
    const page = await refused.text();
    expect(page).toContain(`This project has ${MAX_EXPORTS_UNDER_WAY} exports under way`);
    expect(fieldsOf(page)).toMatchObject({ baseVersion: '2', 'scenes.0.title': 'Version 3' });
    expect(await json(await save({ baseVersion: '2', 'scenes.0.title': 'Version 3' }, {}))).toMatchObject({ code: 'limit' });
    expect(await versions()).toBe(2);
    const queued = await reexport({ accept: 'text/html' });
    expect([queued.status, await queued.text()]).toEqual([409, expect.stringContaining('Nothing was queued')]);
    expect(await json(await reexport())).toMatchObject({ code: 'limit' });
    expect(await database.db.export.count({ where: { projectId: delivery.projectId, version: 1 } })).toBe(1);

    // One of them ended: the save goes through, and is exported.
    await database.db.export.update({ where: { id: underWay[0]!.id }, data: { status: 'failed', error: 'Made up by the test.' } });
    expect((await save({ baseVersion: '2', 'scenes.0.title': 'Version 3' })).status).toBe(303);
    expect(await versions()).toBe(3);
    await database.db.export.update({ where: { id: underWay[1]!.id }, data: { status: 'failed', error: 'Made up by the test.' } });
    await waitFor(async () => (await database.db.export.findFirstOrThrow({ where: { projectId: delivery.projectId, version: 3 } })).status === 'done', { what: 'the export of version 3', ...RENDER });
  }, 240_000);

  it('counts the edits and re-exports of an address: 30 a minute, each one a render', async ({ stack }) => {
    // All in one of the limiter's one-minute windows.
    const second = new Date().getUTCSeconds();
    if (second >= 55) await new Promise((resolve) => setTimeout(resolve, (61 - second) * 1000));
    const from = { 'x-forwarded-for': '198.51.100.7' };
    const project = `/projects/${crypto.randomUUID()}`;
    const posts = await Promise.all(Array.from({ length: 31 }, (_, i) => stack.app.request(`${project}/versions${i % 2 ? '' : '/1/exports'}`, { method: 'POST', headers: from })));
    expect(posts.filter((r) => r.status === 404)).toHaveLength(30);
    const limited = posts.find((r) => r.status === 429)!;
    expect((await json(limited)).code).toBe('rate_limited');
    expect((await stack.app.request(project, { headers: from })).status).toBe(404); // reading is not counted
  });
});

describe('a production whose medium cannot be used', () => {
  it('fails with a readable error and a full refund, without retrying', async ({ stack, database }) => {
    const me = await client(stack, database.db);
    const production = await me.greenlitShowing({ id: 'gone', name: 'Gone screenshot' });
    const failed = await me.reach(production.id, 'failed', RENDER);
    expect(failed.production.error).toBe(`A media file could not be used: The image 'Gone screenshot' (${media.url}/gone.png) could not be downloaded: the server answered 404`);
    expect(failed.production.delivery).toBeNull();
    expect(failed.queue).toBeNull();
    expect(await balance(database.db, me.account.id)).toBe(100);
    const entry = failed.events.find((e: { kind: string }) => e.kind === 'failed');
    expect(entry.payload).toEqual({ stage: 'failed', error: failed.production.error, creditsRefunded: 5 });
    // One try: a medium that cannot be used is not retried.
    expect(failed.events.filter((e: { kind: string }) => e.kind === 'note').map((e: { payload: unknown }) => e.payload)).toEqual([{ phase: 'preparing' }]);
    expect(media.hits('/gone.png')).toBe(1);
    // Refunded, so its project (made by the first try) is not public, and cannot be exported for free.
    const made = await database.db.export.findFirstOrThrow({ where: { projectId: failed.production.projectId } });
    await expectNothingPublic(stack, failed.production.projectId, made.id);
    expect(await database.db.export.count({ where: { projectId: failed.production.projectId } })).toBe(1);
  }, 180_000);
});

describe('a production whose media host is busy', () => {
  it('is tried again and delivered when the host answers on the next try (a 503 is not final)', async ({ stack, database }) => {
    const me = await client(stack, database.db);
    const production = await me.greenlitShowing({ id: 'flaky', name: 'Flaky screenshot' });
    const done = await me.reach(production.id, 'delivered', RENDER);
    expect(done.production).toMatchObject({ error: null, creditsCharged: 5 });
    expect(media.hits('/flaky.png')).toBe(2);
    expect(await balance(database.db, me.account.id)).toBe(95);
    // The first try's failure said a retry follows; the second try's phases were noted again.
    const phases = done.events.filter((e: { kind: string }) => e.kind === 'note').map((e: { payload: { phase: string } }) => e.payload.phase);
    expect(phases).toEqual(['preparing', null, ...PHASES]);
  }, 180_000);

  it('fails after the render farm\'s 3 tries when the host stays down, with a readable reason and a full refund', async ({ stack, database }) => {
    const me = await client(stack, database.db);
    const production = await me.greenlitShowing({ id: 'down', name: 'Down screenshot' });
    // The export's status as the tries go: still being made between them, failed with the last.
    const statuses: string[] = [];
    // Its project is chosen on greenlight; the export is the one of its version 1.
    const delivery = { projectId: (await me.read(production.id)).production.projectId as string };
    const sampling = setInterval(() => {
      void database.db.export.findFirst({ where: delivery }).then((row) => row && statuses.push(row.status));
    }, 100);
    const failed = await me.reach(production.id, 'failed', RENDER).finally(() => clearInterval(sampling));
    expect(statuses).toContain('rendering');
    // Never failed and then rendering again: the export fails once, with the last try.
    const firstFailed = statuses.indexOf('failed');
    expect(firstFailed === -1 || statuses.slice(firstFailed).every((status) => status === 'failed')).toBe(true);
    const made = await database.db.export.findFirstOrThrow({ where: delivery });
    expect(made).toMatchObject({ status: 'failed' });
    // The production's workflow discards what is left of its video, with the reason the last try gave.
    await discarded(stack, made.id);
    expect(await database.db.export.findUniqueOrThrow({ where: { id: made.id } })).toMatchObject({ status: 'failed', error: made.error, videoKey: null });
    expect(await stack.blobs.list(`exports/${made.id}/`)).toEqual([]);
    expect(failed.production.error).toBe(`A media file could not be used: The image 'Down screenshot' (${media.url}/down.png) could not be downloaded: the server answered 503 (after 3 tries)`);
    expect(media.hits('/down.png')).toBe(3);
    // Tries 1 and 2 said another follows; the last did not.
    const notes = failed.events.filter((e: { kind: string }) => e.kind === 'note').map((e: { payload: unknown }) => e.payload);
    expect(notes).toEqual([{ phase: 'preparing' }, { phase: null }, { phase: 'preparing' }, { phase: null }, { phase: 'preparing' }]);
    expect(await balance(database.db, me.account.id)).toBe(100);
  }, 180_000);
});

describe('a production whose database is away as its video starts', () => {
  it('waits for the database rather than spending its tries: delivered on the first, charged once', async ({ stack, database }) => {
    const me = await client(stack, database.db);
    const created = await me.call('/v1/productions', { json: { brief: { intent: 'Announce the new audit log', format: { durationMs: 5000 } } } });
    const { production } = await json(created);
    await me.reach(production.id, 'pitch_ready');
    // Storing its project fails three times in a row: as many times as the render farm tries a video.
    const outage = await failWrites(database.db, { table: 'projects', on: 'INSERT', when: `NEW.production_id = '${production.id}'`, times: 3 });
    expect((await me.call(`/v1/productions/${production.id}/greenlight`, { json: {} })).status).toBe(200);
    const done = await me.reach(production.id, 'delivered', RENDER);
    expect(await outage.tried()).toBe(4);
    expect(done.production).toMatchObject({ error: null, creditsCharged: 5 });
    // One try: its phases, and no retry.
    expect(done.events.filter((e: { kind: string }) => e.kind === 'note').map((e: { payload: { phase: string } }) => e.payload.phase)).toEqual(PHASES);
    expect(await balance(database.db, me.account.id)).toBe(95);
  }, 180_000);
});

describe('a production cancelled while its video is made', () => {
  it('stops the render and refunds the charge', async ({ stack, database }) => {
    const me = await client(stack, database.db);
    const production = await me.greenlit({ intent: 'Announce the new export pipeline' });
    await waitFor(async () => (await me.read(production.id)).queue?.phase === 'building', { what: 'the building phase', ...RENDER });
    const cancelled = await me.call(`/v1/productions/${production.id}/cancel`, { json: { reason: 'Wrong release' } });
    expect(cancelled.status).toBe(200);
    expect((await json(cancelled)).production.stage).toBe('cancelled');
    // The render farm hears the cancellation through its heartbeat and kills the render.
    const row = await database.db.production.findUniqueOrThrow({ where: { id: production.id } });
    await waitFor(async () => (await database.db.export.findFirst({ where: { projectId: row.projectId! } }))?.status === 'failed', { what: 'the render to stop', timeoutMs: 20_000 });
    // Said by the try as it stops, or by the production's workflow as it discards the video, whichever is first.
    expect(['The render was stopped.', 'The production was cancelled.']).toContain((await database.db.export.findFirstOrThrow({ where: { projectId: row.projectId! } })).error);
    expect(await balance(database.db, me.account.id)).toBe(100);
    expect((await me.read(production.id)).production.stage).toBe('cancelled');

    // Refunded in full, so nothing of it is public: its project, a re-export, its share link.
    const { id: exportId } = await database.db.export.findFirstOrThrow({ where: { projectId: row.projectId! } });
    // Its workflow discards what is left of its video (one finished as the cancel landed, too).
    await discarded(stack, exportId);
    expect(await stack.blobs.list(`exports/${exportId}/`)).toEqual([]);
    await expectNothingPublic(stack, row.projectId!, exportId);
    expect(await database.db.export.count({ where: { projectId: row.projectId! } })).toBe(1);
    // A try that finishes late does not bring the export back: it stays failed.
    const files = exportKeys(exportId, 'late');
    await stack.blobs.put(files.video, Buffer.from('mp4!'), { contentType: 'video/mp4' });
    await stack.blobs.put(files.poster, Buffer.from([0xff, 0xd8, 0xff, 0xd9]), { contentType: 'image/jpeg' });
    const late = await finishExport(database.db, exportId, files, { bytes: 4, durationMs: 5000, width: 1920, height: 1080 });
    expect([late.applied, late.export.status]).toEqual([false, 'failed']);
    // Nor is an export that finished (a render done just as the cancel landed) shared.
    await database.db.export.update({ where: { id: exportId }, data: { status: 'done', videoKey: files.video, posterKey: files.poster, bytes: 4 } });
    await expectNothingPublic(stack, row.projectId!, exportId);
  }, 180_000);
});
