import { access, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ASPECTS, PHASES, type Aspect, type Phase } from '@vp/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeImages } from './composition/compose-images.ts';
import { composeProduction } from './composition/compose-production.ts';
import { ASPECT_SIZES } from './composition/frame-size.ts';
import { MediaError, RenderError } from './errors.ts';
import { publicMediaFetcher } from './media/fetch-media.ts';
import { renderComposition, type RenderOptions } from './render.ts';
import { lumaDeviation } from './review/frames.ts';
import { sampleBrief, shortPitch } from './testing/fixtures.ts';
import { audioPeak, framesAt, shareNear, streams, topLevelBoxes } from './testing/inspect.ts';
import { startMediaServer } from './testing/media-server.ts';

let server: Awaited<ReturnType<typeof startMediaServer>>;
let dir: string;
beforeAll(async () => {
  server = await startMediaServer();
  dir = await mkdtemp(join(tmpdir(), 'vp-render-'));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const fetchMedia = publicMediaFetcher({ allowPrivate: true });
const ACCENT = '#ff5a36';
const BACKGROUND = '#101522';
const RENDER_TIMEOUT = 120_000;

function options(name: string, extra: Partial<RenderOptions> = {}): RenderOptions {
  return { outFile: join(dir, `${name}.mp4`), workDir: join(dir, 'work'), fetchMedia, ...extra };
}

type Sound = { voiceover: boolean; music: boolean; sfx: boolean };
const on = (voiceover: boolean, music: boolean, sfx: boolean): Sound => ({ voiceover, music, sfx });
// Every aspect ratio, and across them every combination of the sound switches.
const CASES: [Aspect, Sound][] = [
  ['16:9', on(true, true, true)], ['4:3', on(false, false, false)], ['3:2', on(true, false, false)],
  ['21:9', on(false, true, false)], ['1:1', on(false, false, true)], ['9:16', on(true, true, false)],
  ['3:4', on(true, false, true)], ['2:3', on(false, true, true)], ['4:5', on(true, true, true)],
];

// The portrait case shows a phone's portrait clip, the widescreen one a landscape clip, 4:3 an
// animated GIF; the others a picture.
const MEDIA: Partial<Record<Aspect, string[]>> = { '9:16': ['portrait'], '16:9': ['clip'], '4:3': ['demo'] };

describe('renderComposition', () => {
  it.each(CASES)('renders a %s video with sound %j: exact size, 30 fps, H.264 + AAC, exact length', async (aspect, sound) => {
    const media = MEDIA[aspect] ?? ['dashboard'];
    const composition = composeProduction({ brief: sampleBrief(server.url, { aspect, sound }), pitch: shortPitch(media) });
    const phases: Phase[] = [];
    const progress: number[] = [];
    const name = `aspect-${aspect.replace(':', 'x')}`;
    const result = await renderComposition(composition, options(name, {
      onPhase: (phase) => phases.push(phase), onProgress: ({ overall }) => progress.push(overall),
    }));

    const size = ASPECT_SIZES[aspect];
    expect(await streams(result.file)).toMatchObject({
      ...size, codec: 'h264', pixels: 'yuv420p', fps: '30/1', frames: 150, audio: 'aac', sampleRate: '48000',
    });
    expect(Math.abs((await streams(result.file)).durationMs - 5000)).toBeLessThanOrEqual(1000 / 30);
    // The index is up front: a player starts before the whole file has arrived.
    const boxes = await topLevelBoxes(result.file);
    expect(boxes.indexOf('moov')).toBeGreaterThan(-1);
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
    expect(phases).toEqual([...PHASES]);
    expect(progress.at(-1)).toBe(1);
    expect(progress.every((p, i) => i === 0 || p >= (progress[i - 1] ?? 0))).toBe(true);
    expect((await readFile(result.posterFile)).subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));

    // Each scene's midpoint: not blank, mostly the brand background, the accent somewhere on it.
    const midpoints = composition.scenes.map((s) => s.startMs + s.durationMs / 2);
    const frames = await framesAt(result.file, midpoints, size);
    for (const frame of frames) {
      const gray = { ...frame, data: Buffer.from(frame.data.filter((_, i) => i % 3 === 1)) };
      expect(lumaDeviation(gray)).toBeGreaterThan(5);
      expect(shareNear(frame, BACKGROUND)).toBeGreaterThan(0.2);
      expect(shareNear(frame, ACCENT, 40) * frame.width * frame.height).toBeGreaterThan(150);
    }

    const peak = await audioPeak(result.file);
    if (sound.voiceover || sound.music || sound.sfx) expect(peak).toBeGreaterThan(0.05);
    else expect(peak).toBe(0);
  }, RENDER_TIMEOUT);

  it('renders the one-call API\'s images at 480p, end to end', async () => {
    const composition = composeImages({
      images: [{ url: server.url('/dashboard.png') }, { url: server.url('/phone.webp') }],
      resolution: '480p', background: 'black', appName: 'Acme', accent: '#22c55e',
    });
    const result = await renderComposition(composition, options('images-480p'));
    expect(await streams(result.file)).toMatchObject({ width: 854, height: 480, fps: '30/1', frames: 285, audio: 'aac' });
    expect(result).toMatchObject({ width: 854, height: 480, frames: 285, durationMs: 9500 });
    const frames = await framesAt(result.file, composition.scenes.map((s) => s.startMs + s.durationMs / 2), { width: 854, height: 480 });
    for (const frame of frames) expect(shareNear(frame, '#000000', 12)).toBeGreaterThan(0.2);
    expect(shareNear(frames[0]!, '#22c55e', 40) * 854 * 480).toBeGreaterThan(100);
  }, RENDER_TIMEOUT);

  it('fails with a readable MediaError when a medium is broken, and leaves nothing behind', async () => {
    const brief = sampleBrief(server.url);
    brief.media = brief.media.map((m) => (m.id === 'dashboard' ? { ...m, url: server.url('/gone.png') } : m));
    const phases: Phase[] = [];
    const error = await renderComposition(composeProduction({ brief, pitch: shortPitch() }), options('broken', {
      onPhase: (phase) => phases.push(phase), workDir: join(dir, 'broken-work'),
    })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaError);
    expect((error as Error).message).toBe(`The image 'Dashboard' (${server.url('/gone.png')}) could not be downloaded: the server answered 404`);
    expect(phases).toEqual(['preparing']);
    await expect(access(join(dir, 'broken.mp4'))).rejects.toThrow();
    expect(await readdir(join(dir, 'broken-work'))).toEqual([]);
  });

  it('stops when aborted: the encoder is killed and the intermediate files are removed', async () => {
    const controller = new AbortController();
    const composition = composeProduction({ brief: sampleBrief(server.url), pitch: shortPitch() });
    let frames = 0;
    const error = await renderComposition(composition, options('aborted', {
      workDir: join(dir, 'aborted-work'),
      signal: controller.signal,
      onProgress: ({ phase }) => {
        if (phase === 'building' && ++frames === 3) controller.abort(new Error('cancelled by the test'));
      },
    })).catch((e: unknown) => e);
    expect((error as Error).message).toBe('cancelled by the test');
    expect(await readdir(join(dir, 'aborted-work'))).toEqual([]);
    await expect(access(join(dir, 'aborted.mp4'))).rejects.toThrow();
  }, RENDER_TIMEOUT);

  it('refuses a project that is not valid, saying where', async () => {
    const composition = composeProduction({ brief: sampleBrief(server.url), pitch: shortPitch() });
    const broken = { ...composition, durationMs: composition.durationMs + 1000 };
    const error = await renderComposition(broken, options('invalid')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RenderError);
    expect((error as Error).message).toBe('The project is not valid: durationMs: The scenes add up to 5000 ms');
  });
});

describe('every aspect ratio is covered', () => {
  it('by the cases above', () => {
    expect(new Set(CASES.map(([aspect]) => aspect))).toEqual(new Set(ASPECTS));
  });
});
