import { frameCount, FPS } from '../composition/frame-size.ts';
import type { Composition, Scene } from '../composition/schema.ts';
import { layoutFor, panelBox, type Layout, type Rect } from '../draw/layout.ts';
import { fitText, type FittedText } from '../draw/text.ts';
import type { Theme } from '../draw/theme.ts';
import { planCode, type CodePlan } from './code-plan.ts';

/** A scene with its place on the timeline and its laid-out texts. */
export interface ScenePlan {
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
  /** The main text: the title of a title card, the statement of a text scene. */
  body: FittedText | null;
  /** The heading above a panel (media, code). */
  heading: FittedText | null;
  /** A subtitle, an eyebrow or a caption. */
  sub: FittedText | null;
  /** The area below the heading: the picture card or the editor. */
  panel: Rect;
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

/** The timeline, text metrics and code excerpts of a composition. */
export async function planComposition(composition: Composition, theme: Theme): Promise<Plan> {
  const layout = layoutFor(composition.width, composition.height);
  const count = composition.scenes.length;
  const scenes: ScenePlan[] = [];
  for (const [index, scene] of composition.scenes.entries()) {
    const next = composition.scenes[index + 1];
    const inHalf = index === 0 ? 0 : scene.transition.durationMs / 2;
    const outHalf = next ? next.transition.durationMs / 2 : 0;
    const texts = layoutTexts(scene, layout, theme);
    const headingHeight = texts.heading ? texts.heading.lineHeight * texts.heading.lines.length : 0;
    const panel = panelBox(layout, headingHeight);
    scenes.push({
      scene, index, start: scene.startMs, end: scene.startMs + scene.durationMs, inHalf, outHalf,
      enterAt: index === 0 ? Math.min(200, scene.durationMs * 0.1) : -inHalf * 0.6,
      // The last scene's words leave before the end, so the video ends on the calm background.
      leaveAt: index === count - 1 ? scene.durationMs - Math.min(700, scene.durationMs * 0.25) : scene.durationMs - outHalf - Math.min(250, scene.durationMs * 0.1),
      ...texts,
      panel,
      code: scene.code ? await planCode(scene.code, panel, layout, theme, scene.durationMs) : null,
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

type Texts = Pick<ScenePlan, 'body' | 'heading' | 'sub'>;

/** The texts of a scene; a subtitle, eyebrow or caption that only repeats the main text is left out. */
function layoutTexts(scene: Scene, layout: Layout, theme: Theme): Texts {
  const u = layout.unit;
  const width = layout.content.width;
  const bold = { family: theme.sans, weight: 700 as const };
  const regular = { family: theme.sans, weight: 400 as const };
  const fit = (text: string | null, style: Parameters<typeof fitText>[1]) => (text?.trim() ? fitText(text.trim(), style) : null);
  switch (scene.kind) {
    case 'title':
    case 'outro': {
      const headline = scene.title ?? theme.brandName;
      return {
        body: fit(headline, { ...bold, weight: 800, maxSize: 112 * u, minSize: 52 * u, maxWidth: width * 0.9, maxLines: 3, leading: 1.1 }),
        heading: null,
        sub: addsNothing(scene.text, headline) ? null : fit(scene.text, { ...regular, maxSize: 40 * u, minSize: 28 * u, maxWidth: width * 0.8, maxLines: 2, leading: 1.35 }),
      };
    }
    case 'text':
      return {
        body: fit(scene.text ?? scene.title, { ...bold, maxSize: 84 * u, minSize: 44 * u, maxWidth: Math.min(width - 60 * u, 1500 * u), maxLines: 4, leading: 1.14 }),
        heading: null,
        sub: scene.text && !addsNothing(scene.title, scene.text) ? fit(scene.title?.toUpperCase() ?? null, { ...bold, maxSize: 30 * u, minSize: 22 * u, maxWidth: width, maxLines: 1 }) : null,
      };
    case 'media':
    case 'code':
      return {
        body: null,
        heading: fit(scene.title, { ...bold, maxSize: layout.headingSize, minSize: 34 * u, maxWidth: width, maxLines: layout.portrait ? 2 : 1 }),
        sub: addsNothing(scene.text, scene.title) ? null : fit(scene.text, { ...regular, weight: 500, maxSize: 30 * u, minSize: 24 * u, maxWidth: width * 0.7, maxLines: 2, leading: 1.3 }),
      };
  }
}

/**
 * Whether `extra` only repeats the start of `main`, whatever the case, spacing and punctuation:
 * the same words, or their first ones, as a shot title clipped with an ellipsis is; a clipped
 * last word need only begin the word it stands for.
 */
function addsNothing(extra: string | null, main: string | null): boolean {
  const words = (text: string | null) => text?.toLocaleLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const said = words(extra);
  const shown = words(main);
  if (said.length === 0 || said.length > shown.length) return false;
  const clipped = /…\s*$/u.test(extra ?? '');
  return said.every((word, i) => word === shown[i] || (clipped && i === said.length - 1 && shown[i]!.startsWith(word)));
}
