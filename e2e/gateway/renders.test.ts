import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { serve } from '@hono/node-server';
import { Client, type WorkflowClientInterceptor } from '@temporalio/client';
import { beforeAll, describe, expect, onTestFinished } from 'vitest';
import { sweepUnstartedRenders } from '@vp/activities/render-farm';
import { Render, workflowIds, type Scope } from '@vp/contracts';
import { createRender, renderImagesPrefix, signedRenderVideoUrl } from '@vp/projects';
import { renderFarmWorkflows } from '@vp/temporal-client';
import { seedAccount, test, waitFor } from '@vp/testing';
import { createRenderWorker, runRenderWorker } from '@vp/render-worker';
import { makeImage, probe } from '@vp/gateway/testing/media';
import { renderRoutes } from '@vp/gateway/renders';
import { appOverTemporal, createTestGateway, json, withKey } from '@vp/gateway/testing';
import { createTestStack } from '../stack.ts';

type Stack = Awaited<ReturnType<typeof createTestStack>>;

const it = test.extend('stack', { scope: 'file' }, async ({ database }, { onCleanup }) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'vp-renders-'));
  const stack = await createTestStack(database, { render: true, env: { DATA_DIR: dataDir, RENDER_HEARTBEAT_TIMEOUT_MS: '20000' } });
  onCleanup(async () => {
    await stack.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  return stack;
});

let png: Buffer;
let jpeg: Buffer;
let webp: Buffer;
/** 8000 × 7800: more pixels than the renderer decodes (60 million), in a 6 MB file. */
let huge: Buffer;
/** A camera's photo: an EXIF segment after the start marker holds a thumbnail, a whole JPEG of its own. */
let photo: Buffer;
beforeAll(async () => {
  let thumbnail: Buffer;
  [png, jpeg, webp, huge, thumbnail] = await Promise.all([
    makeImage('png'), makeImage('jpg'), makeImage('webp'), makeImage('png', '8000x7800'), makeImage('jpg', '160x120'),
  ]);
  const exif = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), thumbnail]);
  const app1 = Buffer.from([0xff, 0xe1, 0, 0]);
  app1.writeUInt16BE(exif.length + 2, 2);
  photo = Buffer.concat([jpeg.subarray(0, 2), app1, exif, jpeg.subarray(2)]);
});

type Part = [name: string, value: string | Blob, filename?: string];

function form(parts: Part[]): FormData {
  const body = new FormData();
  for (const [name, value, filename] of parts) {
    if (typeof value === 'string') body.append(name, value);
    else body.append(name, value, filename ?? 'upload');
  }
  return body;
}
const image = (bytes: Uint8Array, filename = 'image', type = 'image/png'): Part => ['images', new Blob([bytes], { type }), filename];
/** The boundary of an encoded multipart body: its first line, without the leading dashes. */
const boundaryOf = (body: Uint8Array) => Buffer.from(body.subarray(0, 200)).toString('latin1').split('\r\n')[0]!.slice(2);

async function caller(stack: Stack, db: Parameters<typeof seedAccount>[0], scopes?: Scope[]) {
  const seeded = await seedAccount(db, { scopes });
  const post = (body: FormData | string, headers: Record<string, string> = {}) =>
    stack.app.request('/v1/renders', { method: 'POST', body, headers: { authorization: `Bearer ${seeded.apiKey}`, ...headers } });
  const get = (id: string) => stack.app.request(`/v1/renders/${id}`, withKey(seeded.apiKey));
  return { ...seeded, post, get };
}

/** The video at a signed address, fetched as any client would (no key). */
async function download(stack: Stack, videoUrl: string, headers: Record<string, string> = {}) {
  const url = new URL(videoUrl);
  return stack.app.request(`${url.pathname}${url.search}`, { headers });
}

describe('POST /v1/renders', () => {
  it('with wait=true holds until the video is ready: 200 with a signed videoUrl that plays', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    const res = await me.post(form([image(png, 'dashboard.png'), ['resolution', '480p'], ['appName', 'Acme'], ['accent', '#ff5a36'], ['background', 'white']]));
    expect(res.status).toBe(200);
    const { render } = await json(res);
    expect(Render.parse(render)).toEqual(render);
    expect(render).toMatchObject({ status: 'done', progress: 1, resolution: '480p', error: null, projectId: expect.any(String) });
    expect(render.videoUrl).toMatch(new RegExp(`^${stack.config.baseUrl}/renders/${render.id}/video\\.mp4\\?expires=\\d+&signature=[\\w-]+$`));

    const video = await download(stack, render.videoUrl);
    expect(video.status).toBe(200);
    expect(video.headers.get('content-type')).toBe('video/mp4');
    expect(video.headers.get('accept-ranges')).toBe('bytes');
    expect(video.headers.get('cache-control')).toMatch(/^private, max-age=(8639\d|86400)$/);
    const bytes = new Uint8Array(await video.arrayBuffer());
    const probed = await probe(bytes);
    // A 2 s title, 3 s per image, a 1.5 s end card.
    expect(probed).toMatchObject({ width: 854, height: 480, codec: 'h264', fps: '30/1', audio: 'aac' });
    expect(Math.abs(probed.durationMs - 6500)).toBeLessThanOrEqual(34);

    const range = await download(stack, render.videoUrl, { range: 'bytes=10-19' });
    expect(range.status).toBe(206);
    expect(range.headers.get('content-range')).toBe(`bytes 10-19/${bytes.length}`);
    expect(new Uint8Array(await range.arrayBuffer())).toEqual(bytes.subarray(10, 20));
    expect((await download(stack, render.videoUrl, { range: `bytes=${bytes.length}-` })).status).toBe(416);

    // The same render, read again, with a fresh signature.
    const read = await me.get(render.id);
    expect(read.status).toBe(200);
    expect((await json(read)).render).toMatchObject({ id: render.id, status: 'done', progress: 1, projectId: render.projectId, videoUrl: expect.any(String) });
    // Its project: the composition the images became.
    const project = await database.db.project.findUniqueOrThrow({ where: { id: render.projectId }, include: { versions: true } });
    expect(project).toMatchObject({ title: 'Acme', productionId: null });
    expect(project.versions[0]!.composition).toMatchObject({ width: 854, height: 480, durationMs: 6500 });
  }, 180_000);

  it('with wait=false answers 202 at once; GET follows it to done', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    const res = await me.post(form([image(photo, 'one.jpg', 'image/jpeg'), image(webp, 'two.webp', 'image/webp'), ['resolution', '480p'], ['wait', 'false']]));
    expect(res.status).toBe(202);
    const { render } = await json(res);
    expect(render).toMatchObject({ status: 'queued', progress: 0, projectId: null, resolution: '480p', error: null });
    expect(render.videoUrl).toBeUndefined();

    const progress: number[] = [];
    const done = await waitFor(async () => {
      const { render: now } = await json(await me.get(render.id));
      expect(['queued', 'rendering', 'done']).toContain(now.status);
      progress.push(now.progress);
      return now.status === 'done' ? now : undefined;
    }, { what: 'the render', timeoutMs: 150_000, intervalMs: 250 });
    expect(progress.every((p, i) => i === 0 || p >= progress[i - 1]!)).toBe(true);
    expect(progress.some((p) => p > 0 && p < 1)).toBe(true);
    const probed = await probe(new Uint8Array(await (await download(stack, done.videoUrl)).arrayBuffer()));
    expect(Math.abs(probed.durationMs - 9500)).toBeLessThanOrEqual(34);
  }, 180_000);

  it('with wait=true answers 202 once the wait budget is spent, and the render goes on', async ({ stack, database }) => {
    // A second gateway on the same render farm, with a 300 ms budget.
    const impatient = await createTestGateway(database, { config: { ...stack.config, render: { ...stack.config.render, waitMs: 300 } } });
    try {
      const me = await seedAccount(database.db);
      const res = await impatient.app.request('/v1/renders', { method: 'POST', body: form([image(png), ['resolution', '480p']]), headers: { authorization: `Bearer ${me.apiKey}` } });
      // Answered while the render is still under way: the budget, not the render, ended the wait.
      expect(res.status).toBe(202);
      const { render } = await json(res);
      expect(['queued', 'rendering']).toContain(render.status);
      await waitFor(async () => (await database.db.render.findUniqueOrThrow({ where: { id: render.id } })).status === 'done', { what: 'the render', timeoutMs: 150_000 });
    } finally {
      await impatient.close();
    }
  }, 180_000);

  it('counts the wait budget from the request, a chunked upload\'s reading too', async ({ stack, database }) => {
    // The route alone, on a clock of the test's that moves a minute with each piece of the upload,
    // with a 5-minute budget and no render farm on its task queues: the render stays queued. The
    // budget is spent by the time the form is read, so it answers at once; counted from the end
    // of the upload instead, it would hold the request for 5 minutes (and this test would time out).
    const prefix = `idle-${crypto.randomUUID().slice(0, 8)}-`;
    const config = { ...stack.config, temporal: { ...stack.config.temporal, taskQueuePrefix: prefix }, render: { ...stack.config.render, waitMs: 5 * 60_000 } };
    const me = await seedAccount(database.db);
    // Starting at the real time: a route reading the real clock instead would find the whole budget left.
    const arrived = Date.now();
    let clock = arrived;
    const routes = renderRoutes({
      config, db: database.db, blobs: stack.blobs, workflows: renderFarmWorkflows(stack.temporal.client, { taskQueuePrefix: prefix, heartbeatTimeoutMs: config.render.heartbeatTimeoutMs }),
      caller: () => ({ accountId: me.account.id }), receivedAt: () => arrived, now: () => clock,
    });
    const encoded = new Response(form([image(png), ['resolution', '480p'], ['wait', 'true']]));
    const type = encoded.headers.get('content-type')!;
    const body = new Uint8Array(await encoded.arrayBuffer());
    // Sent in ten pieces with no Content-Length: read whole before the route runs.
    const pieces = Array.from({ length: 10 }, (_, i) => body.subarray(Math.floor((i * body.length) / 10), Math.floor(((i + 1) * body.length) / 10)));
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const piece = pieces.shift();
        if (!piece) return controller.close();
        clock += 60_000;
        controller.enqueue(piece);
      },
    });
    const res = await routes.request('/', { method: 'POST', body: stream, duplex: 'half', headers: { 'content-type': type } } as RequestInit);
    expect(res.status).toBe(202);
    expect((await json(res)).render).toMatchObject({ status: 'queued' });
    expect(clock - arrived).toBe(10 * 60_000);
  });

  it('keeps no copy of the upload while it waits: the images are in the blob store', async ({ stack, database }) => {
    // A gateway with no render farm on its task queues: the render stays queued, and the request waits its budget.
    const prefix = `idle-${crypto.randomUUID().slice(0, 8)}-`;
    const idle = await createTestGateway(database, {
      config: { ...stack.config, temporal: { ...stack.config.temporal, taskQueuePrefix: prefix }, render: { ...stack.config.render, waitMs: 10_000 } },
    });
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const held = () => {
      gc();
      gc();
      const { external } = process.memoryUsage();
      return external;
    };
    try {
      const me = await seedAccount(database.db);
      // Six images of 10 MB, as one multipart body of 60 MB.
      const body = new Uint8Array(await new Response(form(Array.from({ length: 6 }, () => image(Buffer.concat([png, Buffer.alloc(10 * 1024 * 1024 - png.length)]))))).arrayBuffer());
      const before = held();
      const answer = idle.app.request('/v1/renders', {
        method: 'POST', body, headers: { authorization: `Bearer ${me.apiKey}`, 'content-type': `multipart/form-data; boundary=${boundaryOf(body)}` },
      });
      const render = await waitFor(async () => (await database.db.render.findFirst({ where: { accountId: me.account.id } })) ?? undefined, { what: 'the render' });
      await waitFor(async () => (await idle.blobs.list(renderImagesPrefix(render.id))).length === 6, { what: 'the images stored' });
      await waitFor(async () => {
        try {
          return (await idle.temporal.client.workflow.getHandle(workflowIds.render(render.id)).describe()).status.name === 'RUNNING';
        } catch {
          return false;
        }
      }, { what: 'the render\'s workflow' });
      const whileWaiting = held() - before;
      expect((await answer).status).toBe(202);
      // Less than one image's worth: neither the parsed form nor the images' bytes are kept.
      expect(whileWaiting).toBeLessThan(10 * 1024 * 1024);
    } finally {
      await idle.close();
    }
  }, 60_000);

  it('answers 400 with issues for every bad part, before anything is stored', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    const text = new TextEncoder().encode('just some text, not a picture');
    const eleven = Array.from({ length: 11 }, () => image(png));
    const oversized = Buffer.concat([png, Buffer.alloc(10 * 1024 * 1024 + 1 - png.length)]);
    const fakeWebp = Buffer.concat([Buffer.from('RIFF'), Buffer.from([100, 0, 0, 0]), Buffer.from('WEBP'), Buffer.from('and then no picture at all')]);
    const cutShort = png.subarray(0, Math.floor(png.length / 2));
    // As Python's requests sends `files={'images': (None, data, 'application/octet-stream')}`: a file part without a filename.
    const namelessImage = (content: string) =>
      `--x\r\nContent-Disposition: form-data; name="images"\r\nContent-Type: application/octet-stream\r\n\r\n${content}\r\n--x--\r\n`;
    const cases: [string, FormData | string, Record<string, string>, { path: string; message: RegExp }[]][] = [
      ['no images', form([['resolution', '480p']]), {}, [{ path: 'images', message: /1 to 10 images/ }]],
      ['11 images', form(eleven), {}, [{ path: 'images', message: /1 to 10 images/ }]],
      ['a non-image', form([image(png), image(text, 'notes.png', 'image/png')]), {}, [{ path: 'images.1', message: /'notes.png' is not a PNG, JPEG or WebP image/ }]],
      ['an image part without a file name (application/octet-stream)', namelessImage('just some text'), { 'content-type': 'multipart/form-data; boundary=x' }, [
        { path: 'images.0', message: /^Is not a PNG, JPEG or WebP image\.$/ },
      ]],
      ['an oversized file', form([image(oversized, 'huge.png')]), {}, [{ path: 'images.0', message: /larger than 10 MB/ }]],
      ['an image sent as text', form([['images', 'https://example.com/a.png']]), {}, [{ path: 'images.0', message: /file/ }]],
      ['unknown enum values', form([image(png), ['resolution', '8K'], ['background', 'blue'], ['wait', 'maybe']]), {}, [
        { path: 'resolution', message: /480p/ }, { path: 'background', message: /black/ }, { path: 'wait', message: /true/ },
      ]],
      ['a field twice', form([image(png), ['resolution', '480p'], ['resolution', '720p']]), {}, [{ path: 'resolution', message: /more than once/ }]],
      ['11 files, none a picture (the count is the answer: no file is read)', form(Array.from({ length: 11 }, () => image(text, 'notes.png'))), {}, [
        { path: 'images', message: /1 to 10 images/ },
      ]],
      ['a WebP header with no picture behind it', form([image(fakeWebp, 'fake.webp', 'image/webp')]), {}, [
        { path: 'images.0', message: /^'fake.webp' could not be read: the file is damaged or cut short\.$/ },
      ]],
      ['a PNG cut short', form([image(png), image(cutShort, 'half.png')]), {}, [{ path: 'images.1', message: /^'half.png' could not be read: the file is damaged or cut short\.$/ }]],
      ['a camera photo cut short: its thumbnail ends, the picture does not', form([image(photo.subarray(0, photo.length - 4000), 'photo.jpg', 'image/jpeg')]), {}, [
        { path: 'images.0', message: /^'photo.jpg' could not be read: the file is damaged or cut short\.$/ },
      ]],
      ['a PNG with more pixels than the renderer decodes', form([image(huge, 'huge.png')]), {}, [
        { path: 'images.0', message: /^'huge.png' is too large: 8000 × 7800 pixels, more than 60 million\.$/ },
      ]],
      ['fields named like an object\'s own properties, and a bad value', form([image(png), ['toString', 'x'], ['constructor', 'y'], ['__proto__', 'z'], ['resolution', '8K']]), {}, [
        { path: 'resolution', message: /480p/ },
      ]],
      ['fields the API does not know are ignored, even twice, as files or holding NUL', form([
        image(png), ['tags', 'a'], ['tags', 'b'], ['notes', new Blob(['x']), 'notes.txt'], ['notes', 'a\u0000b'], ['resolution', '8K'],
      ]), {}, [{ path: 'resolution', message: /480p/ }]],
      ['text fields sent as files', form([image(png), ['resolution', new Blob(['480p']), 'resolution.txt'], ['accent', new Blob(['#ff5a36']), 'accent.txt']]), {}, [
        { path: 'resolution', message: /text field, not a file/ }, { path: 'accent', message: /text field, not a file/ },
      ]],
      ['an accent that is not a colour', form([image(png), ['accent', 'brand-orange']]), {}, [{ path: 'accent', message: /^Is not a CSS colour/ }]],
      ['an app name holding NUL', form([image(png), ['appName', 'Hook\u0000line']]), {}, [{ path: 'appName', message: /NUL/ }]],
      ['a JSON body', JSON.stringify({ images: [] }), { 'content-type': 'application/json' }, [{ path: '', message: /multipart\/form-data \(got application\/json\)/ }]],
      ['a broken multipart body', '--nope\r\nnot a form', { 'content-type': 'multipart/form-data; boundary=x' }, [{ path: '', message: /could not be read/ }]],
    ];
    for (const [what, body, headers, expected] of cases) {
      const res = await me.post(body, headers);
      expect(res.status, what).toBe(400);
      const answer = await json(res);
      expect(answer, what).toEqual({ error: expect.any(String), issues: expect.any(Array) });
      expect(answer.issues, what).toHaveLength(expected.length);
      for (const [i, issue] of expected.entries()) {
        expect(answer.issues[i].path, what).toBe(issue.path);
        expect(answer.issues[i].message, what).toMatch(issue.message);
      }
    }
    expect(await database.db.render.count({ where: { accountId: me.account.id } })).toBe(0);
  }, 60_000);

  it('takes 10 images of 10 MB in one body (the body limit allows it), and refuses a larger body with 400 and its issue', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    const big = (bytes: Buffer) => Buffer.concat([bytes, Buffer.alloc(10 * 1024 * 1024 - bytes.length)]);
    // Ten files of 10 MB: the last is not a picture, so the render is refused by its bytes, not by its size.
    const parts = [...Array.from({ length: 9 }, () => image(big(png))), image(big(Buffer.from('not a picture')), 'last.png')];
    const res = await me.post(form(parts));
    expect(res.status).toBe(400);
    expect((await json(res)).issues).toEqual([{ path: 'images.9', message: "'last.png' is not a PNG, JPEG or WebP image." }]);

    const tooMuch = await me.post(form([...parts, image(big(png))]));
    expect(tooMuch.status).toBe(400);
    const message = 'The form is larger than 110 MB: send 1 to 10 images of at most 10 MB each.';
    expect(await json(tooMuch)).toEqual({ error: message, issues: [{ path: 'images', message }] });
  }, 60_000);

  it('keeps ten images whatever other files come first, says a repeated field once, and refuses more than 100 parts', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    // Files that are not images come first; the tenth image is read too (it is not a picture).
    const tenth = await me.post(form([
      ['notes', new Blob(['x']), 'notes.txt'], ['appName', new Blob(['Acme']), 'name.txt'],
      ...Array.from({ length: 9 }, () => image(png)), image(Buffer.from('not a picture'), 'last.png'),
    ]));
    expect((await json(tenth)).issues).toEqual([
      { path: 'appName', message: 'Send this as a text field, not a file.' },
      { path: 'images.9', message: "'last.png' is not a PNG, JPEG or WebP image." },
    ]);
    const repeated = await me.post(form([image(png), ['appName', 'a\u0000'], ['appName', 'b'], ['appName', 'c']]));
    expect((await json(repeated)).issues).toEqual([{ path: 'appName', message: 'Given more than once.' }, { path: 'appName', message: expect.stringMatching(/NUL/) }]);
    // A file's name is quoted in a problem, at most 100 characters of it.
    const named = await me.post(form([image(Buffer.from('not a picture'), `${'n'.repeat(5000)}.png`)]));
    expect((await json(named)).issues).toEqual([{ path: 'images.0', message: `'${'n'.repeat(99)}…' is not a PNG, JPEG or WebP image.` }]);
    const crowded = await me.post(form([image(png), ...Array.from({ length: 100 }, (_, i): Part => [`extra${i}`, 'x'])]));
    expect(crowded.status).toBe(400);
    expect((await json(crowded)).issues).toEqual([{ path: '', message: 'The form has more than 100 parts.' }]);
  });

  it('answers a body cut short inside an image with 400, closing the connection, and goes on serving', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    const whole = new Uint8Array(await new Response(form([image(png, 'cut.png'), ['resolution', '480p']])).arrayBuffer());
    const cut = whole.subarray(0, Math.floor(whole.length / 2));
    const res = await stack.app.request('/v1/renders', {
      method: 'POST', body: cut, headers: { authorization: `Bearer ${me.apiKey}`, 'content-type': `multipart/form-data; boundary=${boundaryOf(whole)}` },
    });
    expect(res.status).toBe(400);
    expect((await json(res)).issues).toEqual([{ path: '', message: 'The multipart body could not be read.' }]);
    expect(res.headers.get('connection')).toBe('close');
    // The process is still up: the next request is answered.
    expect((await me.get(crypto.randomUUID())).status).toBe(404);
  });

  it('reads an upload as it arrives: a chunked body past the limit is refused having held little of it', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    // An image part of 150 MB, in 1 MB pieces, with no Content-Length: only its reading can tell it is too large.
    const boundary = 'upload-as-it-arrives';
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="images"; filename="endless.png"\r\nContent-Type: image/png\r\n\r\n`);
    const piece = Buffer.alloc(1024 * 1024, 7);
    // What the gateway holds, sampled every tenth piece once the garbage (the pieces it let go) is collected.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const held = () => {
      gc();
      return process.memoryUsage().arrayBuffers;
    };
    const before = held();
    let peak = before;
    let pieces = 150;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pieces === 150) controller.enqueue(head);
        if (pieces % 10 === 0) peak = Math.max(peak, held());
        // A fresh buffer each time, as a socket's reads are.
        if (pieces-- > 0) controller.enqueue(Buffer.from(piece));
        else controller.close();
      },
    });
    const res = await stack.app.request('/v1/renders', {
      method: 'POST', body: stream, duplex: 'half', headers: { authorization: `Bearer ${me.apiKey}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    } as RequestInit);
    expect(res.status).toBe(400);
    expect((await json(res)).issues).toEqual([{ path: 'images', message: expect.stringMatching(/^The form is larger than 110 MB/) }]);
    expect(res.headers.get('connection')).toBe('close');
    // At most one image's 10 MB and the pieces in flight: not the 110 MB read before the limit.
    expect(peak - before).toBeLessThan(32 * 1024 * 1024);
    expect(pieces).toBeGreaterThan(150 - 115);
  }, 60_000);
});

describe('an image the renderer cannot decode', () => {
  it('fails the render with the image\'s name, never its address in the blob store, and removes its images', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    // A PNG whose header is whole (640 × 360, IEND) but whose pixel data is missing: its IDAT chunk renamed.
    const damaged = Buffer.from(png);
    damaged.write('XXXX', damaged.indexOf('IDAT'), 'latin1');
    const res = await me.post(form([image(png, 'first.png'), image(damaged, 'second.png'), ['resolution', '480p']]));
    expect(res.status).toBe(200);
    const { render } = await json(res);
    expect(render).toMatchObject({ status: 'failed', error: "An image could not be used: The image 'Image 2' could not be decoded: the file is damaged or not a picture" });
    expect(render.error).not.toContain('blob:');
    expect(render.videoUrl).toBeUndefined();
    // Nothing will read its images again: they are removed as it fails.
    expect(await stack.blobs.list(renderImagesPrefix(render.id))).toEqual([]);
  }, 180_000);
});

describe('a render whose workflow is cancelled through Temporal (an operator)', () => {
  it('reads as failed, saying so, and keeps none of its images', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    const res = await me.post(form([image(png), ['resolution', '480p'], ['wait', 'false']]));
    expect(res.status).toBe(202);
    const { render } = await json(res);
    const handle = stack.temporal.client.workflow.getHandle(workflowIds.render(render.id));
    await handle.cancel();
    expect(await handle.result()).toBe('failed');
    expect((await json(await me.get(render.id))).render).toMatchObject({ status: 'failed', error: 'The render was cancelled by the service\'s operators.' });
    expect(await stack.blobs.list(renderImagesPrefix(render.id))).toEqual([]);
  }, 60_000);

  it('reads as failed too when cancelled before any render worker took it', async ({ stack, database }) => {
    // A gateway whose task queues no render farm polls yet: the render's workflow has not run at all.
    const prefix = `idle-${crypto.randomUUID().slice(0, 8)}-`;
    const idle = await createTestGateway(database, { config: { ...stack.config, temporal: { ...stack.config.temporal, taskQueuePrefix: prefix } } });
    try {
      const me = await seedAccount(database.db);
      const res = await idle.app.request('/v1/renders', {
        method: 'POST', body: form([image(png), ['resolution', '480p'], ['wait', 'false']]), headers: { authorization: `Bearer ${me.apiKey}` },
      });
      const { render } = await json(res);
      const handle = idle.temporal.client.workflow.getHandle(workflowIds.render(render.id));
      await handle.cancel();
      // A render worker comes only now: the workflow's first task finds the cancel already there.
      const stop = new AbortController();
      const farm = await createRenderWorker({
        config: idle.config, connection: idle.temporal.nativeConnection, db: database.db, blobs: idle.blobs, workflowBundle: idle.temporal.workflowBundle,
      });
      const running = runRenderWorker(farm, stop.signal);
      try {
        expect(await handle.result()).toBe('failed');
      } finally {
        stop.abort();
        await running;
      }
      expect(await database.db.render.findUniqueOrThrow({ where: { id: render.id } })).toMatchObject({
        status: 'failed', error: 'The render was cancelled by the service\'s operators.',
      });
      expect(await idle.blobs.list(renderImagesPrefix(render.id))).toEqual([]);
    } finally {
      await idle.close();
    }
  }, 60_000);
});

describe('a render whose workflow could not be started', () => {
  it('answers 503, reads as failed with no project (none was made), and keeps none of its images', async ({ stack, database }) => {
    // The gateway over a Temporal namespace that does not exist: every workflow start is refused.
    const refusing = new Client({ connection: stack.temporal.client.connection, namespace: 'no-such-namespace' });
    const app = appOverTemporal(stack, database.db, refusing);
    const me = await caller(stack, database.db);
    const res = await app.request('/v1/renders', { method: 'POST', body: form([image(png), ['resolution', '480p']]), headers: { authorization: `Bearer ${me.apiKey}` } });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('10');
    expect(await json(res)).toEqual({ error: expect.stringContaining('cannot be started') });
    const row = await database.db.render.findFirstOrThrow({ where: { accountId: me.account.id } });
    const read = await me.get(row.id);
    expect(read.status).toBe(200);
    expect((await json(read)).render).toEqual({ id: row.id, status: 'failed', progress: 0, projectId: null, resolution: '480p', error: 'The render could not be started.' });
    expect(await database.db.project.count({ where: { id: row.projectId } })).toBe(0);
    // Its image is not kept: no render will read it.
    expect(row.imageKeys).toHaveLength(1);
    expect(await stack.blobs.stat(row.imageKeys[0]!)).toBeNull();
  });
});

describe('a render whose gateway stopped before starting it', () => {
  it('is abandoned by the render farm\'s sweep: failed, its images removed, and a late start refused with 503; so is one whose workflow was stopped by hand', async ({ stack, database }) => {
    const { db } = database;
    // A gateway that stalls right before starting the workflow, as one that stopped there would.
    let resume!: () => void;
    const stalled = new Promise<void>((resolve) => { resume = resolve; });
    const stallStarts: WorkflowClientInterceptor = { startWithDetails: async (input, next) => (await stalled, next(input)) };
    const app = appOverTemporal(stack, db, new Client({ connection: stack.temporal.client.connection, interceptors: { workflow: [stallStarts] } }));
    const me = await caller(stack, db);
    const answer = app.request('/v1/renders', { method: 'POST', body: form([image(png), ['resolution', '480p']]), headers: { authorization: `Bearer ${me.apiKey}` } });
    const orphan = await waitFor(async () => {
      const row = await db.render.findFirst({ where: { accountId: me.account.id } });
      return row !== null && (await stack.blobs.stat(row.imageKeys[0]!)) !== null && row;
    }, { what: 'the recorded render and its stored image' });

    // Beside it, a render whose workflow started and waits for a render worker (none polls its
    // queue), and one whose workflow was stopped by hand while it waited.
    const queuedRender = () => createRender(db, { id: randomUUID(), accountId: me.account.id, resolution: '480p', background: 'black', appName: null, accent: null, imageKeys: [] });
    const startNowhere = (id: string) => renderFarmWorkflows(stack.temporal.client, { taskQueuePrefix: 'nobody-polls-', heartbeatTimeoutMs: 20_000 }).startRender({ renderId: id, accountId: me.account.id });
    const waiting = await queuedRender();
    const handle = await startNowhere(waiting.id);
    onTestFinished(async () => {
      await handle.terminate().catch(() => {});
    });
    const stopped = await queuedRender();
    await (await startNowhere(stopped.id)).terminate('stopped by hand');
    await stack.blobs.put(`${renderImagesPrefix(stopped.id)}images/1.png`, png);

    const workflows = renderFarmWorkflows(stack.temporal.client, { taskQueuePrefix: stack.config.temporal.taskQueuePrefix, heartbeatTimeoutMs: 20_000 });
    const sweep = () => sweepUnstartedRenders({ db, blobs: stack.blobs, workflows }, { olderThanMs: 0 });
    expect(await sweep()).toEqual([orphan.id, stopped.id]);
    expect(await db.render.findUniqueOrThrow({ where: { id: stopped.id } })).toMatchObject({ status: 'failed', error: 'The render could not be started.' });
    expect(await stack.blobs.list(renderImagesPrefix(stopped.id))).toEqual([]);
    await stack.temporal.client.workflow.getHandle(workflowIds.render(orphan.id)).result();
    expect((await json(await me.get(orphan.id))).render).toEqual({
      id: orphan.id, status: 'failed', progress: 0, projectId: null, resolution: '480p', error: 'The render could not be started.',
    });
    expect(await stack.blobs.list(renderImagesPrefix(orphan.id))).toEqual([]);
    // The render that did start is left to its workflow, and looked at no more.
    expect(await db.render.findUniqueOrThrow({ where: { id: waiting.id } })).toMatchObject({ status: 'queued', startConfirmedAt: expect.any(Date) });
    expect(await sweep()).toEqual([]);

    // The stalled gateway wakes: its start is refused, and its caller is told to try again.
    resume();
    const res = await answer;
    expect(res.status).toBe(503);
    expect(await json(res)).toEqual({ error: expect.stringContaining('cannot be started') });
    expect(await db.render.findUniqueOrThrow({ where: { id: orphan.id } })).toMatchObject({ status: 'failed', error: 'The render could not be started.' });
    expect(await stack.blobs.list(renderImagesPrefix(orphan.id))).toEqual([]);
  });
});

describe('a POST without a key', () => {
  it('is answered 401 at once, before its body is read: a big chunked upload is not taken in', async ({ stack }) => {
    const server = serve({ fetch: stack.app.fetch, hostname: '127.0.0.1', port: 0 });
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      const MiB = 1024 * 1024;
      const answer = await uploadWithoutKey(`http://127.0.0.1:${port}/v1/renders`, 200 * MiB);
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.body)).toEqual({ error: 'Missing API key: send `Authorization: Bearer svc_live_…`.' });
      // The route's body limit is 110 MiB: read first, all of it would have been taken in (then refused).
      // Sent before the answer: only what the sockets' buffers hold.
      expect(answer.sentBeforeAnswer).toBeLessThan(32 * MiB);
    } finally {
      if ('closeAllConnections' in server) server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

/**
 * A chunked multipart upload of `total` bytes without a key, made lazily 1 MiB at a time; it
 * stops sending when the answer comes and reports how much it had sent by then.
 */
function uploadWithoutKey(url: string, total: number): Promise<{ status: number; body: string; sentBeforeAnswer: number }> {
  let sent = 0;
  const chunk = Buffer.alloc(1024 * 1024, 'a');
  const source = new Readable({
    read() {
      if (sent >= total) return void this.push(null);
      sent += chunk.length;
      this.push(chunk);
    },
  });
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=x' } }, (res) => {
      const sentBeforeAnswer = sent;
      source.unpipe(req);
      source.destroy();
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (text: string) => (body += text));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body, sentBeforeAnswer });
      });
    });
    req.on('error', reject);
    source.pipe(req);
  });
}

describe('GET /v1/renders/{id}', () => {
  it('answers 404 for another account\'s render, and for none', async ({ stack, database }) => {
    const owner = await caller(stack, database.db);
    const { render } = await json(await owner.post(form([image(png), ['resolution', '480p'], ['wait', 'false']])));
    const other = await caller(stack, database.db);
    const res = await other.get(render.id);
    expect(res.status).toBe(404);
    expect(await json(res)).toMatchObject({ code: 'not_found' });
    expect((await other.get(crypto.randomUUID())).status).toBe(404);
    expect((await owner.get('not-a-uuid')).status).toBe(400);
    expect((await owner.get(render.id)).status).toBe(200);
  });

  it('needs the renders scope', async ({ stack, database }) => {
    const me = await caller(stack, database.db, ['productions']);
    const res = await me.post(form([image(png)]));
    expect(res.status).toBe(403);
    expect(await json(res)).toMatchObject({ code: 'api_key_missing_scope' });
  });
});

describe('the signed video address', () => {
  it('refuses a changed or expired signature, and works without a key', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    const { render } = await json(await me.post(form([image(png), ['resolution', '480p']])));
    expect(render.status).toBe('done');
    const url = new URL(render.videoUrl);
    const path = url.pathname;
    const signature = url.searchParams.get('signature')!;
    const expires = url.searchParams.get('expires')!;
    const at = (query: string) => stack.app.request(`${path}?${query}`);

    expect((await at(url.searchParams.toString())).status).toBe(200);
    const tampered = await at(`expires=${expires}&signature=${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`);
    expect(tampered.status).toBe(403);
    expect(await json(tampered)).toMatchObject({ code: 'forbidden' });
    expect((await at(`expires=${Number(expires) + 60}&signature=${signature}`)).status).toBe(403);
    expect((await at('')).status).toBe(403);
    // Another render's id with this signature.
    expect((await stack.app.request(`/renders/${crypto.randomUUID()}/video.mp4?${url.searchParams}`)).status).toBe(403);

    const old = new URL(signedRenderVideoUrl({ baseUrl: stack.config.baseUrl, secret: stack.config.secrets.urls, now: new Date(Date.now() - 25 * 3600_000) }, render.id));
    const expired = await at(old.searchParams.toString());
    expect(expired.status).toBe(410);
    expect(await json(expired)).toMatchObject({ code: 'expired' });
  }, 180_000);
});

describe('the OpenAPI description', () => {
  it('documents the renders routes from their schemas, the multipart form included', async ({ stack }) => {
    const doc = await json(await stack.app.request('/v1/openapi.json'));
    const create = doc.paths['/v1/renders'].post;
    expect(create.requestBody.content['multipart/form-data'].schema).toEqual({ $ref: '#/components/schemas/CreateRenderForm' });
    expect(doc.components.schemas.CreateRenderForm.properties.images).toMatchObject({ type: 'array', minItems: 1, maxItems: 10, items: { type: 'string', format: 'binary' } });
    expect(Object.keys(create.responses).sort()).toEqual(['200', '202', '400', '401', '403', '404', '429', '503']);
    expect(doc.paths['/v1/renders/{id}'].get.responses['200'].content['application/json'].schema.properties.render).toEqual({ $ref: '#/components/schemas/Render' });
    expect(doc.paths['/renders/{id}/video.mp4'].get).toMatchObject({ security: [] });
  });
});
