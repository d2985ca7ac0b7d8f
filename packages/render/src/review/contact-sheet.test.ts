import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadImage } from '../canvas.ts';
import { composeImages } from '../composition/compose-images.ts';
import { publicMediaFetcher } from '../media/fetch-media.ts';
import { renderComposition } from '../render.ts';
import { psnr } from '../testing/craft.ts';
import { framesAt } from '../testing/inspect.ts';
import { startMediaServer } from '../testing/media-server.ts';
import { contactSheet, framesEvery } from './contact-sheet.ts';

let server: Awaited<ReturnType<typeof startMediaServer>>;
let dir: string;
let video: string;
beforeAll(async () => {
  server = await startMediaServer();
  dir = await mkdtemp(join(tmpdir(), 'vp-contact-sheet-'));
  const composition = composeImages({ images: [{ url: server.url('/dashboard.png') }], resolution: '480p', background: 'black', appName: 'Acme' });
  video = (await renderComposition(composition, { outFile: join(dir, 'video.mp4'), workDir: join(dir, 'work'), fetchMedia: publicMediaFetcher({ allowPrivate: true }) })).file;
}, 120_000);
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a contact sheet', () => {
  it('takes the frame shown every half second, from the first, at the size asked', async () => {
    const frames = await framesEvery(video, { longSide: 320 });
    // 6.5 s: 0 to 6 s.
    expect(frames.map((f) => f.atMs)).toEqual(Array.from({ length: 13 }, (_, i) => i * 500));
    expect(frames[0]!.picture).toMatchObject({ width: 320, height: 180 });
    const exact = await framesAt(video, [0, 3500, 5000], { width: 320, height: 180 });
    for (const [k, atMs] of [0, 3500, 5000].entries()) expect(psnr(frames[atMs / 500]!.picture, exact[k]!), `at ${atMs} ms`).toBeGreaterThan(35);
  });

  it('lays the frames out in rows with their times, as one PNG', async () => {
    const frames = await framesEvery(video, { longSide: 160, everyMs: 1000 });
    const sheet = await loadImage(await contactSheet(frames, { columns: 4, title: 'video.mp4' }));
    // 7 frames of 160 x 90 in rows of 4: two rows under the title.
    expect(sheet.width).toBe(4 * (160 + 8) + 8);
    expect(sheet.height).toBe(40 + 2 * (90 + 22 + 8) + 8);
  });
});
