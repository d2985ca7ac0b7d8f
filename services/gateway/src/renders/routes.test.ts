import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect } from 'vitest';
import { Render, type Scope } from '@vp/contracts';
import { signedRenderVideoUrl } from '@vp/projects';
import { seedAccount, test, waitFor } from '@vp/testing';
import { makeImage, probe } from '../testing/media.ts';
import { createTestGateway, createTestStack, json, withKey } from '../test-app.ts';

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
beforeAll(async () => {
  [png, jpeg, webp] = await Promise.all([makeImage('png'), makeImage('jpg'), makeImage('webp')]);
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
    const res = await me.post(form([image(jpeg, 'one.jpg', 'image/jpeg'), image(webp, 'two.webp', 'image/webp'), ['resolution', '480p'], ['wait', 'false']]));
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
      const started = Date.now();
      const res = await impatient.app.request('/v1/renders', { method: 'POST', body: form([image(png), ['resolution', '480p']]), headers: { authorization: `Bearer ${me.apiKey}` } });
      expect(res.status).toBe(202);
      expect(Date.now() - started).toBeLessThan(5000);
      const { render } = await json(res);
      expect(['queued', 'rendering']).toContain(render.status);
      await waitFor(async () => (await database.db.render.findUniqueOrThrow({ where: { id: render.id } })).status === 'done', { what: 'the render', timeoutMs: 150_000 });
    } finally {
      await impatient.close();
    }
  }, 180_000);

  it('answers 400 with issues for every bad part, before anything is stored', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    const text = new TextEncoder().encode('just some text, not a picture');
    const eleven = Array.from({ length: 11 }, () => image(png));
    const oversized = Buffer.concat([png, Buffer.alloc(10 * 1024 * 1024 + 1 - png.length)]);
    const cases: [string, FormData | string, Record<string, string>, { path: string; message: RegExp }[]][] = [
      ['no images', form([['resolution', '480p']]), {}, [{ path: 'images', message: /1 to 10 images/ }]],
      ['11 images', form(eleven), {}, [{ path: 'images', message: /1 to 10 images/ }]],
      ['a non-image', form([image(png), image(text, 'notes.png', 'image/png')]), {}, [{ path: 'images.1', message: /'notes.png' is not a PNG, JPEG or WebP image/ }]],
      ['an oversized file', form([image(oversized, 'huge.png')]), {}, [{ path: 'images.0', message: /larger than 10 MB/ }]],
      ['an image sent as text', form([['images', 'https://example.com/a.png']]), {}, [{ path: 'images.0', message: /file/ }]],
      ['unknown enum values', form([image(png), ['resolution', '8K'], ['background', 'blue'], ['wait', 'maybe']]), {}, [
        { path: 'resolution', message: /480p/ }, { path: 'background', message: /black/ }, { path: 'wait', message: /true/ },
      ]],
      ['a field twice', form([image(png), ['resolution', '480p'], ['resolution', '720p']]), {}, [{ path: 'resolution', message: /more than once/ }]],
      ['a JSON body', JSON.stringify({ images: [] }), { 'content-type': 'application/json' }, [{ path: '', message: /multipart\/form-data \(got application\/json\)/ }]],
      ['a broken multipart body', '--nope\r\nnot a form', { 'content-type': 'multipart/form-data; boundary=x' }, [{ path: '', message: /could not be read/ }]],
    ];
    for (const [what, body, headers, expected] of cases) {
      const res = await me.post(body, headers);
      expect(res.status, what).toBe(400);
      const answer = await json(res);
      expect(answer, what).toMatchObject({ code: 'invalid_request', error: expect.any(String) });
      expect(answer.issues, what).toHaveLength(expected.length);
      for (const [i, issue] of expected.entries()) {
        expect(answer.issues[i].path, what).toBe(issue.path);
        expect(answer.issues[i].message, what).toMatch(issue.message);
      }
    }
    expect(await database.db.render.count({ where: { accountId: me.account.id } })).toBe(0);
  }, 60_000);

  it('takes 10 images of 10 MB in one body (the body limit allows it), and refuses a larger body with 413', async ({ stack, database }) => {
    const me = await caller(stack, database.db);
    const big = (bytes: Buffer) => Buffer.concat([bytes, Buffer.alloc(10 * 1024 * 1024 - bytes.length)]);
    // Ten files of 10 MB: the last is not a picture, so the render is refused by its bytes, not by its size.
    const parts = [...Array.from({ length: 9 }, () => image(big(png))), image(big(Buffer.from('not a picture')), 'last.png')];
    const res = await me.post(form(parts));
    expect(res.status).toBe(400);
    expect((await json(res)).issues).toEqual([{ path: 'images.9', message: "'last.png' is not a PNG, JPEG or WebP image." }]);

    const tooMuch = await me.post(form([...parts, image(big(png))]));
    expect(tooMuch.status).toBe(413);
    expect(await json(tooMuch)).toMatchObject({ code: 'payload_too_large' });
  }, 60_000);
});

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
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['200', '202', '400', '401', '403', '413', '429']));
    expect(doc.paths['/v1/renders/{id}'].get.responses['200'].content['application/json'].schema.properties.render).toEqual({ $ref: '#/components/schemas/Render' });
    expect(doc.paths['/renders/{id}/video.mp4'].get).toMatchObject({ security: [] });
  });
});
