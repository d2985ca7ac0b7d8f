import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeProduction } from './composition/compose-production.ts';
import { publicMediaFetcher } from './media/fetch-media.ts';
import { renderComposition } from './render.ts';
import { drawStoryboard } from './storyboard.ts';
import { decodePicture, psnr } from './testing/craft.ts';
import { sampleBrief, samplePitch, CODE_FILE } from './testing/fixtures.ts';
import { framesAt } from './testing/inspect.ts';
import { startMediaServer } from './testing/media-server.ts';

let server: Awaited<ReturnType<typeof startMediaServer>>;
let dir: string;
beforeAll(async () => {
  server = await startMediaServer();
  dir = await mkdtemp(join(tmpdir(), 'vp-storyboard-'));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const fetchMedia = publicMediaFetcher({ allowPrivate: true });

describe('drawStoryboard', () => {
  it('draws each scene at its key moment as the video shows it: code, a clip that plays, pictures, a statement', async () => {
    const composition = composeProduction({
      brief: sampleBrief(server.url, { aspect: '16:9' }),
      pitch: samplePitch([
        { title: 'Release 2.4 is here', durationMs: 2000, text: 'Faster, safer fetching' },
        { title: 'Configurable timeouts', durationMs: 3000, codePaths: [CODE_FILE.path], text: 'Set timeoutMs per request' },
        { title: 'The walkthrough', durationMs: 2500, mediaIds: ['clip'], text: 'Every step on screen' },
        { title: 'Dashboards', durationMs: 2500, mediaIds: ['dashboard', 'chart'] },
        { title: 'Why it matters', durationMs: 2000, text: 'Teams ship twice as often.' },
        { title: 'Call to action', durationMs: 2000, text: 'acme.dev' },
      ]),
    });
    const video = await renderComposition(composition, { outFile: join(dir, 'video.mp4'), workDir: join(dir, 'work'), fetchMedia });
    const stills = await drawStoryboard(composition, { workDir: join(dir, 'work'), fetchMedia, format: 'png' });
    expect(stills.map((still) => still.sceneId)).toEqual(composition.scenes.map((scene) => scene.id));
    const frames = await framesAt(video.file, stills.map((still) => still.atMs), composition);
    for (const [i, still] of stills.entries()) {
      expect(still).toMatchObject({ mime: 'image/png', width: 1920, height: 1080 });
      const scene = composition.scenes[i]!;
      expect(still.atMs).toBeGreaterThanOrEqual(scene.startMs);
      expect(still.atMs).toBeLessThan(scene.startMs + scene.durationMs);
      // The video is the same frame through the encoder: only its losses differ.
      expect(psnr(await decodePicture(still.image), frames[i]!), still.sceneId).toBeGreaterThanOrEqual(33);
    }
  }, 120_000);

  it('scales its stills down as JPEG for e-mails and pages', async () => {
    const composition = composeProduction({ brief: sampleBrief(server.url, { aspect: '9:16' }), pitch: samplePitch([{ title: 'A new dashboard', durationMs: 3000, mediaIds: ['dashboard'] }]) });
    const [still] = await drawStoryboard(composition, { workDir: join(dir, 'work'), fetchMedia, width: 360 });
    expect(still).toMatchObject({ mime: 'image/jpeg', width: 360, height: 640 });
    expect(still!.image.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  });
});
