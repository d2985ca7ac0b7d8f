import { createCanvas } from '../canvas.ts';
import { describe, expect, it } from 'vitest';
import { composeImages } from '../composition/compose-images.ts';
import { pictureSizes, type Assets } from '../media/assets.ts';
import { planComposition } from '../plan/plan.ts';
import { toRgb } from '../style/color.ts';
import { Compositor } from './compositor.ts';
import { themeFor } from './theme.ts';

const ACCENT = '#22c55e';
const PICTURE = '#2060a0';

/** The columns of the frame where a colour shows (within a small tolerance). */
function columnsOf(data: Buffer, width: number, hex: string): number[] {
  const { r, g, b } = toRgb(hex);
  const columns = new Set<number>();
  for (let i = 0; i < data.length; i += 4) {
    if (Math.abs(data[i]! - r) <= 6 && Math.abs(data[i + 1]! - g) <= 6 && Math.abs(data[i + 2]! - b) <= 6) columns.add((i / 4) % width);
  }
  return [...columns].sort((a, b) => a - b);
}

describe('a picture scene without a heading', () => {
  it('marks the picture card with the accent bar just left of it, not far off in the margin', async () => {
    const composition = composeImages({ images: [{ url: 'https://media.example/tall.png' }], resolution: '720p', background: 'white', accent: ACCENT });
    const tall = createCanvas(600, 1000);
    const ctx = tall.getContext('2d');
    ctx.fillStyle = PICTURE;
    ctx.fillRect(0, 0, 600, 1000);
    const assets: Assets = { images: new Map([['image-1', tall]]), videos: new Map(), logo: null };
    const plan = await planComposition(composition, themeFor(composition.brand, null), pictureSizes(assets));
    const scene = plan.scenes[1]!;
    const compositor = new Compositor(plan, assets);
    // The middle of the picture's scene: the card and the mark have settled.
    await compositor.draw(Math.round(((scene.start + scene.end) / 2) * 30 / 1000));
    const pixels = compositor.canvas.data();
    compositor.dispose();

    const picture = columnsOf(pixels, composition.width, PICTURE);
    const accent = columnsOf(pixels, composition.width, ACCENT);
    expect(picture.length).toBeGreaterThan(100);
    expect(accent.length).toBeGreaterThan(0);
    // A tall picture in a wide frame: its card is centred, well inside the content area.
    expect(picture[0]!).toBeGreaterThan(plan.layout.content.x + 200);
    expect(accent.at(-1)!).toBeLessThan(picture[0]!);
    expect(picture[0]! - accent[0]!).toBeLessThanOrEqual(plan.layout.margin);
  });
});
