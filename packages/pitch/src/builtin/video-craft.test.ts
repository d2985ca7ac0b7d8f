import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ASPECTS, TEMPLATES, type Aspect, type Brief, type Pitch } from '@vp/contracts';
import { ASPECT_SIZES, composeProduction, drawStoryboard, publicMediaFetcher, renderComposition, type Composition } from '@vp/render';
import { backdropOf, decodePicture, framesAt, framesEvery, psnr, safeAreaCoverage, startMediaServer, stillRuns } from '@vp/render/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { craftBrief } from './craft-brief.ts';
import { createBuiltinWriter } from './writer.ts';

/**
 * The videos the built-in writer's pitches become, rendered for real: one per aspect ratio,
 * the templates taken in turn, 10 s each, with pictures, code, a logo and sound.
 */
type Made = { aspect: Aspect; brief: Brief; pitch: Pitch; composition: Composition; file: string };

let server: Awaited<ReturnType<typeof startMediaServer>>;
let dir: string;
const made: Made[] = [];
const fetchMedia = publicMediaFetcher({ allowPrivate: true });
const writer = createBuiltinWriter({ now: () => new Date('2026-01-01T00:00:00Z') });

beforeAll(async () => {
  server = await startMediaServer();
  dir = await mkdtemp(join(tmpdir(), 'vp-craft-'));
  for (const [i, aspect] of ASPECTS.entries()) {
    const brief = craftBrief(server.url, { template: TEMPLATES[i % TEMPLATES.length], aspect, durationMs: 10_000 });
    const pitch = await writer.write({ brief, version: 1, previous: null, comments: [] });
    const composition = composeProduction({ brief, pitch });
    const file = join(dir, `${aspect.replace(':', 'x')}.mp4`);
    await renderComposition(composition, { outFile: file, workDir: join(dir, 'work'), fetchMedia });
    made.push({ aspect, brief, pitch, composition, file });
  }
}, 600_000);

afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the videos the writer\'s pitches become', () => {
  it('keep moving: no picture holds still longer than a second, but a last rest of at most half a second', async () => {
    for (const { aspect, file, composition } of made) {
      const runs = await stillRuns(file, { minMs: 300 });
      const last = runs.at(-1);
      const rest = last && last.endMs >= composition.durationMs - 50 ? last : null;
      const holds = runs.filter((run) => run !== rest);
      expect(Math.max(0, ...holds.map((run) => run.durationMs)), `${aspect}: ${JSON.stringify(holds)}`).toBeLessThanOrEqual(1000);
      expect(rest?.durationMs ?? 0, `${aspect}: the last rest`).toBeLessThanOrEqual(500);
    }
  });

  it('fill every frame\'s safe area: frames every half second, on average, cover at least the floor their shape has', async () => {
    for (const { aspect, file, composition } of made) {
      const frames = await framesEvery(file, { width: 480 });
      const backdrop = backdropOf(composition, frames[0]!.picture.width);
      const coverage = frames.map(({ picture }) => safeAreaCoverage(picture, composition, backdrop));
      const mean = coverage.reduce((sum, c) => sum + c, 0) / coverage.length;
      expect(mean, aspect).toBeGreaterThanOrEqual(COVERAGE_FLOOR[shapeOf(aspect)]);
    }
  });

  it('match their storyboard: each still is the frame the video shows at its time', async () => {
    for (const { aspect, file, composition } of made.filter((m) => ['16:9', '9:16', '1:1'].includes(m.aspect))) {
      const stills = await drawStoryboard(composition, { workDir: join(dir, 'work'), fetchMedia, format: 'png' });
      const size = ASPECT_SIZES[aspect];
      const frames = await framesAt(file, stills.map((s) => s.atMs), size);
      for (const [i, still] of stills.entries()) {
        const drawn = await decodePicture(still.image);
        expect(psnr(drawn, frames[i]!), `${aspect} ${still.sceneId} at ${still.atMs} ms`).toBeGreaterThanOrEqual(STILL_PSNR_DB);
      }
    }
  });
});

/** A still and the video's frame differ by the encoding alone: 35–42 dB here; the frame next to it is ~31 in a camera move, ~23 in a clip. */
const STILL_PSNR_DB = 33;

/** The share of the safe area that content covers, on average over a video's frames, at the least: set from videos judged good (see the README). */
const COVERAGE_FLOOR = { wide: 0.45, square: 0.55, tall: 0.5 };

function shapeOf(aspect: Aspect): keyof typeof COVERAGE_FLOOR {
  const { width, height } = ASPECT_SIZES[aspect];
  return width / height > 1.15 ? 'wide' : width / height >= 0.78 ? 'square' : 'tall';
}

