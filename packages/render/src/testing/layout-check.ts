import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FPS } from '../composition/frame-size.ts';
import { parseComposition, type Composition } from '../composition/schema.ts';
import { Compositor } from '../draw/compositor.ts';
import { Chrome } from '../draw/chrome.ts';
import { layoutFor, type FrameShape, type Rect } from '../draw/layout.ts';
import { themeFor } from '../draw/theme.ts';
import type { RegionName } from '../layout/arrange.ts';
import type { LayoutName } from '../layout/catalogue.ts';
import { loadAssets, pictureSizes } from '../media/assets.ts';
import type { FetchMedia } from '../media/fetch-media.ts';
import { planComposition } from '../plan/plan.ts';
import { backdropOf, contentMask, rgbOf } from './craft.ts';

/** A scene as the renderer drew it at its key moment, against the layout its plan describes. */
export interface DrawnScene {
  sceneId: string;
  layout: LayoutName;
  shape: FrameShape;
  regions: Partial<Record<RegionName, Rect>>;
  /** The layout's parts where nothing was drawn. */
  missing: RegionName[];
  /** The share of what was drawn that lies outside every part of the layout. */
  stray: number;
}

/** How far a part's drawing may go past its box: antialiasing, the drift by the key moment; a card's or editor's shadow. */
const SLACK = { part: 28, panel: 100 };

/**
 * Draws each scene of the composition at its key moment with the real renderer and compares what
 * was drawn with its plan's layout: which parts of the layout got nothing, and how much was
 * drawn outside all of them (the brand bug aside).
 */
export async function drawnLayouts(input: Composition, fetchMedia: FetchMedia): Promise<DrawnScene[]> {
  const composition = parseComposition(input);
  const dir = await mkdtemp(join(tmpdir(), 'vp-layouts-'));
  try {
    const assets = await loadAssets(composition, { fetchMedia, dir });
    const theme = themeFor(composition.brand, assets.logo);
    const plan = await planComposition(composition, theme, pictureSizes(assets));
    const frame = layoutFor(composition.width, composition.height);
    const backdrop = backdropOf(composition);
    const bug = new Chrome(frame, theme).area;
    const drawn: DrawnScene[] = [];
    for (const scene of plan.scenes) {
      const compositor = new Compositor(plan, assets, undefined, true);
      try {
        await compositor.draw(Math.min(plan.frames - 1, Math.round(((scene.start + scene.keyMoment) * FPS) / 1000)), { whole: true });
        const mask = contentMask(rgbOf(compositor.canvas), backdrop, bug ? [grow(bug, 8)] : []);
        drawn.push({ sceneId: scene.scene.id, layout: scene.layout, shape: frame.shape, regions: scene.regions, ...compare(mask, frame.width, scene.regions, frame.unit) });
      } finally {
        compositor.dispose();
      }
    }
    return drawn;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function compare(mask: Uint8Array, width: number, regions: Partial<Record<RegionName, Rect>>, unit: number): Pick<DrawnScene, 'missing' | 'stray'> {
  const parts = Object.entries(regions) as [RegionName, Rect][];
  const height = mask.length / width;
  const inside = (rect: Rect) => {
    let count = 0;
    for (let y = Math.max(0, rect.y); y < Math.min(height, rect.y + rect.height); y++) {
      for (let x = Math.max(0, rect.x); x < Math.min(width, rect.x + rect.width); x++) count += mask[y * width + x]!;
    }
    return count;
  };
  // A part is drawn when some of its box, grown by the drift, holds content.
  const missing = parts.filter(([, rect]) => inside(grow(rect, Math.round(SLACK.part * unit))) < Math.max(4, rect.width * rect.height * 0.01)).map(([name]) => name);
  const allowed = parts.map(([name, rect]) => grow(rect, Math.round((name === 'panel' ? SLACK.panel : SLACK.part) * unit)));
  let total = 0;
  let outside = 0;
  for (let p = 0; p < mask.length; p++) {
    if (!mask[p]) continue;
    total++;
    const x = p % width;
    const y = Math.floor(p / width);
    if (!allowed.some((r) => x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height)) outside++;
  }
  return { missing, stray: total ? outside / total : 0 };
}

const grow = (rect: Rect, by: number): Rect => ({ x: rect.x - by, y: rect.y - by, width: rect.width + 2 * by, height: rect.height + 2 * by });
