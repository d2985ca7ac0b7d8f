import { frameCount, FPS } from '../composition/frame-size.ts';
import type { Composition, Scene } from '../composition/schema.ts';
import { layoutFor, type Layout, type Rect } from '../draw/layout.ts';
import type { Theme } from '../draw/theme.ts';
import { arrange, type Regions } from '../layout/arrange.ts';
import { layoutName, type LayoutName } from '../layout/catalogue.ts';
import { layoutTexts, type SceneTexts } from '../layout/texts.ts';
import { enteredAfter, keyWords, LIGHT_MS, type Lighting } from '../draw/kinetic-text.ts';
import { editorHeightFor, planCode, type CodePlan } from './code-plan.ts';

/** A scene with its place on the timeline, its layout and its laid-out texts. */
export interface ScenePlan extends SceneTexts {
  scene: Scene;
  index: number;
  start: number;
  end: number;
  /** Half of the transition into this scene and into the next one (0 for none). */
  inHalf: number;
  outHalf: number;
  /** Local times the texts start to enter and to leave. */
  enterAt: number;
  leaveAt: number;
  /** The local time everything has come in and nothing has left: a storyboard's still of the scene. */
  keyMoment: number;
  /** The local time the scene's words are all in (a statement's key words lit too). */
  settledAt: number;
  /** When a statement's key words light up, one after another. */
  lighting: Lighting | null;
  /** The catalogue's layout, and where it puts each part on this frame. */
  layout: LayoutName;
  regions: Regions;
  /** The area below the heading: the picture cards' room, or the editor. */
  panel: Rect;
  /** One card per picture, in order. */
  cards: Rect[];
  code: CodePlan | null;
}

export interface Plan {
  composition: Composition;
  layout: Layout;
  theme: Theme;
  scenes: ScenePlan[];
  frames: number;
  /**
   * When each scene's middle frame starts, in whole milliseconds, never past it (and after the
   * frame before): the encoder puts a keyframe on that frame, and the review's keyframe-only seek
   * to the same time decodes that frame alone.
   */
  midpoints: number[];
  posterFrame: number;
}

/** A statement's words come in this long after its label, and its key words light up this long after all are in, one every… */
export const EYEBROW_LEAD_MS = 160;
const LIGHT_AFTER_MS = 250;
const LIGHT_EVERY_MS = { least: 280, most: 650 };

export type PictureSizes = ReadonlyMap<string, { width: number; height: number }>;

/**
 * The timeline, layouts, text metrics and code excerpts of a composition. `pictures` gives
 * each medium's size, for the cards that take its shape; unknown ones are taken as 16:9.
 */
export async function planComposition(composition: Composition, theme: Theme, pictures: PictureSizes = new Map()): Promise<Plan> {
  const layout = layoutFor(composition.width, composition.height);
  const count = composition.scenes.length;
  const logo = theme.logo ? { width: theme.logo.width, height: theme.logo.height } : null;
  const scenes: ScenePlan[] = [];
  for (const [index, scene] of composition.scenes.entries()) {
    const next = composition.scenes[index + 1];
    const inHalf = index === 0 ? 0 : scene.transition.durationMs / 2;
    const outHalf = next ? next.transition.durationMs / 2 : 0;
    const texts = layoutTexts(scene, layout, theme.sans, theme.brandName);
    const aspects = scene.media.map(({ assetId }) => {
      const size = pictures.get(assetId);
      return size && size.width > 0 && size.height > 0 ? size.width / size.height : 16 / 9;
    });
    let { regions, cards } = arrange(scene.kind, layout, texts, logo, aspects);
    let code = scene.code ? await planCode(scene.code, regions.panel ?? layout.content, layout, theme, scene.durationMs) : null;
    // An editor whose lines all fit in less room is made as tall as they need, and laid out again.
    const needed = code ? editorHeightFor(code) : Infinity;
    if (code && needed < (regions.panel?.height ?? 0)) {
      ({ regions, cards } = arrange(scene.kind, layout, texts, logo, aspects, needed));
      code = await planCode(scene.code!, regions.panel ?? layout.content, layout, theme, scene.durationMs);
    }
    const panel = regions.panel ?? layout.content;
    const enterAt = index === 0 ? Math.min(200, scene.durationMs * 0.1) : -inHalf * 0.6;
    // The last scene's words leave before the end, so the video ends on the calm background.
    const leaveAt = index === count - 1 ? scene.durationMs - Math.min(700, scene.durationMs * 0.25) : scene.durationMs - outHalf - Math.min(250, scene.durationMs * 0.1);
    const lighting = scene.kind === 'text' ? lightingOf(texts, enterAt, leaveAt) : null;
    scenes.push({
      scene, index, start: scene.startMs, end: scene.startMs + scene.durationMs, inHalf, outHalf, enterAt, leaveAt,
      keyMoment: keyMoment(scene, enterAt, leaveAt, code, lighting), settledAt: settledAt(scene, enterAt, code, lighting), lighting,
      layout: layoutName(scene.kind, layout.shape), regions, panel, cards, code, ...texts,
    });
  }
  const frames = frameCount(composition.durationMs);
  // A time off the frame grid would not do: its keyframe may land on the frame before it, which
  // the seek then skips, finding no keyframe after it in a short last scene.
  const middleFrames = scenes.map((s) => Math.min(frames - 1, Math.round((((s.start + s.end) / 2) * FPS) / 1000)));
  return {
    composition, layout, theme, scenes, frames,
    midpoints: middleFrames.map((frame) => Math.floor((frame * 1000) / FPS)),
    posterFrame: middleFrames[0] ?? 0,
  };
}

/** How long each kind of scene takes to come in whole, from when its words start to enter. */
const SETTLE_MS: Record<Scene['kind'], number> = { title: 1700, outro: 1700, text: 1300, media: 1200, code: 1200 };

/**
 * When a scene shows all it has: once its parts have come in (a code scene's once its line is
 * typed, a statement's once its key words are lit), else as late as it can before they leave,
 * and never before its middle.
 */
function keyMoment(scene: Scene, enterAt: number, leaveAt: number, code: CodePlan | null, lighting: Lighting | null): number {
  return Math.round(Math.max(scene.durationMs / 2, Math.min(settledAt(scene, enterAt, code, lighting), leaveAt - 50)));
}

function settledAt(scene: Scene, enterAt: number, code: CodePlan | null, lighting: Lighting | null): number {
  if (code) return Math.max(code.typedEnd, code.scrollEnd) + 250;
  if (lighting) return lighting.start + lighting.count * lighting.everyMs + LIGHT_MS;
  return enterAt + SETTLE_MS[scene.kind];
}

/** When the statement's key words light up: once all its words are in, one after another at a reading pace or slower, across its time. */
function lightingOf(texts: SceneTexts, enterAt: number, leaveAt: number): Lighting | null {
  const words = texts.body?.lines.flatMap((line) => line.split(' ').filter(Boolean)) ?? [];
  if (!words.length) return null;
  const count = keyWords(words).length;
  const bodyEnter = enterAt + (texts.sub ? EYEBROW_LEAD_MS : 0);
  const start = bodyEnter + enteredAfter(words.length) + LIGHT_AFTER_MS;
  const everyMs = Math.min(LIGHT_EVERY_MS.most, Math.max(LIGHT_EVERY_MS.least, (leaveAt - start) / (count + 1)));
  return { start, everyMs, count };
}
