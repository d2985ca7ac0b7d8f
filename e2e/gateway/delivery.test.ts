import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { Delivery, PHASES, workflowIds, type BriefInput, type Stage } from '@vp/contracts';
import { balance } from '@vp/ledger';
import { exportKeys, finishExport, sharePosterUrl, shareUrl, shareVideoUrl } from '@vp/projects';
import { failWrites, seedAccount, test, waitFor } from '@vp/testing';
import { startReceiver, type Receiver } from '@vp/webhooks/testing';
import { makeImage, probe, startMediaServer } from '@vp/gateway/testing/media';
import { json, withKey } from '@vp/gateway/testing';
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
    env: { DATA_DIR: dataDir, ALLOW_PRIVATE_URLS: 'true', RENDER_HEARTBEAT_TIMEOUT_MS: '20000' },
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
 * Everything public about a production that is not delivered: the share page, video and poster
 * of its delivery export. 404 for each. (Its project is the app's: e2e/app/project-edits.test.ts.)
 */
async function expectNothingPublic(stack: Stack, exportId: string) {
  for (const url of [shareUrl, shareVideoUrl, sharePosterUrl]) expect((await get(stack, url(stack.config.appUrl, exportId))).status).toBe(404);
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

  it('sends an old address of its project (the gateway served it once) to the app, where it is behind sign-in', async ({ stack, database }) => {
    const { delivery } = await delivered(stack, database.db);
    const path = new URL(delivery.editUrl).pathname;
    for (const old of [path, `${path}/edit`, `${path}?from=mail`]) {
      const res = await stack.app.request(old, { headers: { accept: 'text/html' } });
      expect([res.status, res.headers.get('location')], old).toEqual([301, `${stack.config.appUrl}${old}`]);
    }
    // Its forms are the app's: the gateway serves none.
    expect((await stack.app.request(`${path}/versions/1/exports`, { method: 'POST' })).status).toBe(404);
  }, 180_000);
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
    // Refunded, so nothing of it is public, and its project cannot be exported for free.
    const made = await database.db.export.findFirstOrThrow({ where: { projectId: failed.production.projectId } });
    await expectNothingPublic(stack, made.id);
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
    await expectNothingPublic(stack, exportId);
    expect(await database.db.export.count({ where: { projectId: row.projectId! } })).toBe(1);
    // A try that finishes late does not bring the export back: it stays failed.
    const files = exportKeys(exportId, 'late');
    await stack.blobs.put(files.video, Buffer.from('mp4!'), { contentType: 'video/mp4' });
    await stack.blobs.put(files.poster, Buffer.from([0xff, 0xd8, 0xff, 0xd9]), { contentType: 'image/jpeg' });
    const late = await finishExport(database.db, exportId, files, { bytes: 4, durationMs: 5000, width: 1920, height: 1080 });
    expect([late.applied, late.export.status]).toEqual([false, 'failed']);
    // Nor is an export that finished (a render done just as the cancel landed) shared.
    await database.db.export.update({ where: { id: exportId }, data: { status: 'done', videoKey: files.video, posterKey: files.poster, bytes: 4 } });
    await expectNothingPublic(stack, exportId);
  }, 180_000);
});
