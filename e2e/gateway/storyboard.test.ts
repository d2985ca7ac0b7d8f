import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { Pitch } from '@vp/contracts';
import type { Mailer, MailMessage } from '@vp/mail';
import { drawStoryboard, publicMediaFetcher, type Composition } from '@vp/render';
import { decodePicture, framesAt, psnr } from '@vp/render/testing';
import { seedAccount, test, waitFor } from '@vp/testing';
import { makeImage, startMediaServer } from '@vp/gateway/testing/media';
import { json, withKey } from '@vp/gateway/testing';
import { createTestStack } from '../stack.ts';

/**
 * The storyboard before greenlight, made by the whole service (gateway, workers, a real render
 * worker and its storyboard queue): each shot's `previewUrl` is a signed still, in the pitch
 * e-mail and on the link page, and the video delivered later shows that still at its time.
 */

const mail: MailMessage[] = [];
const mailer: Mailer = { send: async (message) => void mail.push(message) };
let media: Awaited<ReturnType<typeof startMediaServer>>;
let dir: string;

beforeAll(async () => {
  media = await startMediaServer({ '/dashboard.png': { type: 'image/png', body: await makeImage('png', '1280x720') } });
  dir = await mkdtemp(join(tmpdir(), 'vp-storyboard-'));
});
afterAll(async () => {
  await media.close();
  await rm(dir, { recursive: true, force: true });
});

const it = test.extend('stack', { scope: 'file' }, async ({ database }, { onCleanup }) => {
  const stack = await createTestStack(database, {
    render: true, worker: { mailer },
    // The pitch e-mail waits for its stills (a render worker draws them here).
    env: { DATA_DIR: join(dir, 'data'), ALLOW_PRIVATE_URLS: 'true', RENDER_HEARTBEAT_TIMEOUT_MS: '20000', STORYBOARD_WAIT_MS: '90000' },
  });
  onCleanup(() => stack.close());
  return stack;
});

/** The path and query of one of our addresses, for `app.request`. */
const local = (url: string) => { const { pathname, search } = new URL(url); return `${pathname}${search}`; };

describe('the storyboard', () => {
  it('gives each shot a signed still before greenlight, shown in the pitch e-mail and on the link page; the delivered video shows each still at its time', { timeout: 400_000 }, async ({ stack, database: { db } }) => {
    const me = await seedAccount(db, { credits: 100 });
    const call = (path: string, init: { json?: unknown } = {}) => stack.app.request(path, withKey(me.apiKey, init));
    const brief = { intent: 'Show off the new dashboard in release 2.4', format: { durationMs: 5000 }, media: [{ id: 'dashboard', kind: 'image', url: `${media.url}/dashboard.png`, name: 'Dashboard' }] };
    const { production } = await json(await call('/v1/productions', { json: { brief } }));
    const read = async () => (await json(await call(`/v1/productions/${production.id}`))).production;
    const drawn: Pitch = await waitFor(async () => {
      const { pitch } = await read();
      return pitch?.shots.every((shot: { previewUrl?: string }) => shot.previewUrl) ? pitch : undefined;
    }, { what: 'every shot\'s still', timeoutMs: 150_000, intervalMs: 250 });

    // Signed addresses of this server, each a JPEG; a changed signature is refused.
    for (const shot of drawn.shots) {
      expect(shot.previewUrl).toMatch(new RegExp(`^${stack.config.baseUrl}/storyboards/${production.id}/1/${shot.index}\\.jpg\\?expires=\\d+&signature=`));
      const answer = await stack.app.request(local(shot.previewUrl!));
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('image/jpeg');
    }
    const forged = await stack.app.request(local(drawn.shots[0]!.previewUrl!).replace(/signature=./, 'signature=x'));
    expect(forged.status).toBe(403);

    // The pitch e-mail waited for them; the link page shows them.
    const message = await waitFor(() => mail.find((m) => m.text.includes(production.id) && m.subject.startsWith('Pitch ready')), { what: 'the pitch e-mail', timeoutMs: 60_000 });
    for (const shot of drawn.shots) expect(message.html).toContain(`src="${shot.previewUrl!.replace(/&/g, '&#38;')}"`);
    const goLink = /https?:\/\/\S+\/go\/[^\s?]+/.exec(message.text)![0];
    const linkPage = await (await stack.app.request(local(goLink))).text();
    for (const shot of drawn.shots) expect(linkPage).toContain(`<img src="${shot.previewUrl!.replace(/&/g, '&amp;')}"`);

    // Greenlit and delivered: each still is the frame the video shows at the shot's key moment.
    expect((await call(`/v1/productions/${production.id}/greenlight`, { json: {} })).status).toBe(200);
    await waitFor(async () => (await read()).stage === 'delivered', { what: 'the delivery', timeoutMs: 200_000, intervalMs: 500 });
    const made = await db.export.findFirstOrThrow({ where: { project: { productionId: production.id } } });
    const file = join(dir, 'video.mp4');
    await writeFile(file, await stack.blobs.get(made.videoKey!));
    const version = await db.projectVersion.findFirstOrThrow({ where: { project: { productionId: production.id } } });
    // When each key moment falls, as the renderer plans it (its own stills are not what is checked).
    const planned = (await drawStoryboard(version.composition as unknown as Composition, { workDir: join(dir, 'work'), fetchMedia: publicMediaFetcher({ allowPrivate: true }), width: 64 }))
      .filter((still) => /^shot-\d+$/.test(still.sceneId));
    const stills = await Promise.all(drawn.shots.map(async (shot) => decodePicture(Buffer.from(await (await stack.app.request(local(shot.previewUrl!))).arrayBuffer()))));
    const size = { width: stills[0]!.width, height: stills[0]!.height };
    const frames = await framesAt(file, planned.map((still) => still.atMs), size);
    for (const [i, still] of stills.entries()) {
      const own = psnr(still, frames[i]!);
      expect(own, `shot ${i} at ${planned[i]!.atMs} ms`).toBeGreaterThanOrEqual(STILL_PSNR_DB);
      // And closer to its own frame than to any other shot's.
      for (const [j, other] of frames.entries()) if (j !== i) expect(own).toBeGreaterThan(psnr(still, other));
    }
  });
});

/** A 640 px JPEG still against the video's frame scaled to it: they differ by the two encodings and the scaling alone. */
const STILL_PSNR_DB = 28;
