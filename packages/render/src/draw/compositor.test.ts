import { describe, expect, it } from 'vitest';
import { composeProduction } from '../composition/compose-production.ts';
import type { Assets } from '../media/assets.ts';
import { planComposition } from '../plan/plan.ts';
import { sampleBrief, shortPitch } from '../testing/fixtures.ts';
import { Compositor } from './compositor.ts';
import { themeFor } from './theme.ts';

const url = (path: string) => `https://media.example.com${path}`;
const noAssets: Assets = { images: new Map(), videos: new Map(), logo: null };

describe('the compositor', () => {
  it('draws a frame that changed in one area as the same pixels as that frame drawn whole', async () => {
    const composition = composeProduction({ brief: sampleBrief(url), pitch: shortPitch() });
    const plan = await planComposition(composition, themeFor(composition.brand, null));
    const incremental = new Compositor(plan, noAssets);
    const whole = new Compositor(plan, noAssets);
    const kinds = { none: 0, full: 0, area: 0 };
    let largest = 0;
    // The title, then the code scene coming in, scrolling and lighting up its changed lines.
    for (let frame = 0; frame < 90; frame++) {
      const change = await incremental.draw(frame);
      await whole.draw(frame, { whole: true });
      kinds[change.kind]++;
      if (change.kind !== 'area') continue;
      const { x, y, width, height } = change.area;
      expect(x % 2 + y % 2 + width % 2 + height % 2, 'the area is made of whole 2x2 blocks').toBe(0);
      const drawn = change.canvas.data();
      const expected = whole.canvas.getContext('2d').getImageData(x, y, width, height).data;
      for (let i = 0; i < drawn.length; i++) largest = Math.max(largest, Math.abs((drawn[i] ?? 0) - (expected[i] ?? 0)));
    }
    incremental.dispose();
    whole.dispose();
    expect(kinds.area).toBeGreaterThan(10);
    expect(kinds.full).toBeGreaterThan(0);
    expect(largest).toBeLessThanOrEqual(1);
  });
});
