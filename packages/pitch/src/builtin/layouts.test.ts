import { ASPECTS, TEMPLATES } from '@vp/contracts';
import { ASPECT_SIZES, composeProduction, publicMediaFetcher } from '@vp/render';
import { layoutPhrase } from '@vp/render/layouts';
import { drawnLayouts, startMediaServer } from '@vp/render/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { craftBrief } from './craft-brief.ts';
import { createBuiltinWriter } from './writer.ts';

let server: Awaited<ReturnType<typeof startMediaServer>>;
beforeAll(async () => {
  server = await startMediaServer();
});
afterAll(() => server.close());

const writer = createBuiltinWriter({ now: () => new Date('2026-01-01T00:00:00Z') });
const fetchMedia = publicMediaFetcher({ allowPrivate: true });

describe('what a pitch describes is what the renderer draws', () => {
  it.each(ASPECTS)('every template at %s: each shot\'s visual names the layout its scenes are drawn in, and each is drawn so', async (aspect) => {
    for (const template of TEMPLATES) {
      const brief = craftBrief(server.url, { template, aspect, durationMs: 16_000 });
      const pitch = await writer.write({ brief, version: 1, previous: null, comments: [] });
      const drawn = await drawnLayouts(composeProduction({ brief, pitch }), fetchMedia);
      const { width } = ASPECT_SIZES[aspect];
      for (const scene of drawn) {
        const shot = pitch.shots[Number(/^shot-(\d+)/.exec(scene.sceneId)?.[1])];
        const where = `${template} ${aspect} ${scene.sceneId} (${scene.layout})`;
        expect(shot?.visual, where).toContain(layoutPhrase(scene.layout, scene.shape, aspect));
        expect(scene.missing, `${where}: parts of the layout left empty`).toEqual([]);
        expect(scene.stray, `${where}: drawn outside the layout`).toBeLessThan(0.01);
        // Square and tall frames are made for their pictures and code: across the full width, or nearly.
        if (scene.shape !== 'wide' && scene.regions.panel) expect(scene.regions.panel.width / width, where).toBeGreaterThanOrEqual(0.85);
      }
    }
  }, 120_000);
});
