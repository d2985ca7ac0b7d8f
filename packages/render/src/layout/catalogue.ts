import type { SceneKind } from '../composition/schema.ts';
import type { FrameShape, Layout } from '../draw/layout.ts';
import { scaleSteps, type TextBox } from './type-scale.ts';

/**
 * The catalogue of layouts: for each kind of scene and shape of frame, where its words and
 * pictures go, the type each text is set in, what moves, and the words that describe it. The
 * renderer draws from it and the pitch writers describe shots from it, so what a person
 * greenlights is what the renderer draws.
 */

/** The places for words a layout has. */
export type TextRole = 'headline' | 'subtitle' | 'statement' | 'eyebrow' | 'heading' | 'caption';

export type LayoutName = 'title-card' | 'end-card' | 'statement' | 'picture-below-heading' | 'picture-stack' | 'editor-below-heading' | 'editor-stack';

type Steps = [largest: number, smallest: number];
type BoxSpec = { steps: Steps; width: number; lines: number; weight: TextBox['weight']; leading: number; uppercase?: boolean };

/** Each role's box, by shape: sizes at 1080 on the short side, widths as a share of the frame's content. */
const BOXES: Record<FrameShape, Record<TextRole, BoxSpec>> = {
  wide: {
    headline: { steps: [120, 48], width: 0.9, lines: 3, weight: 800, leading: 1.1 },
    subtitle: { steps: [40, 28], width: 0.8, lines: 2, weight: 400, leading: 1.35 },
    statement: { steps: [84, 44], width: 0.85, lines: 4, weight: 700, leading: 1.14 },
    eyebrow: { steps: [30, 22], width: 0.85, lines: 1, weight: 700, leading: 1.18, uppercase: true },
    heading: { steps: [60, 36], width: 1, lines: 1, weight: 700, leading: 1.18 },
    caption: { steps: [30, 24], width: 0.7, lines: 2, weight: 500, leading: 1.3 },
  },
  square: {
    headline: { steps: [136, 48], width: 0.92, lines: 4, weight: 800, leading: 1.08 },
    subtitle: { steps: [44, 28], width: 0.9, lines: 3, weight: 400, leading: 1.35 },
    statement: { steps: [136, 48], width: 0.9, lines: 6, weight: 700, leading: 1.1 },
    eyebrow: { steps: [32, 22], width: 0.9, lines: 1, weight: 700, leading: 1.18, uppercase: true },
    heading: { steps: [68, 36], width: 1, lines: 2, weight: 700, leading: 1.14 },
    caption: { steps: [36, 24], width: 0.86, lines: 3, weight: 500, leading: 1.3 },
  },
  tall: {
    headline: { steps: [160, 48], width: 0.94, lines: 5, weight: 800, leading: 1.06 },
    subtitle: { steps: [48, 28], width: 0.92, lines: 3, weight: 400, leading: 1.35 },
    statement: { steps: [136, 48], width: 0.92, lines: 7, weight: 700, leading: 1.1 },
    eyebrow: { steps: [36, 24], width: 0.92, lines: 1, weight: 700, leading: 1.18, uppercase: true },
    heading: { steps: [76, 40], width: 1, lines: 3, weight: 700, leading: 1.12 },
    caption: { steps: [40, 26], width: 0.86, lines: 3, weight: 500, leading: 1.3 },
  },
};

/** The box a role's text is set in on this frame, in `family`. */
export function textBox(role: TextRole, frame: Layout, family: string): TextBox {
  const spec = BOXES[frame.shape][role];
  // A statement sits right of its accent rule (see the statement painter).
  const indent = role === 'statement' || role === 'eyebrow' ? Math.round(44 * frame.unit) : 0;
  return {
    family, weight: spec.weight, leading: spec.leading, maxLines: spec.lines, uppercase: spec.uppercase,
    sizes: scaleSteps(spec.steps[0], spec.steps[1], frame.unit),
    maxWidth: Math.round(Math.min(frame.content.width * spec.width, frame.content.width - indent)),
  };
}

/**
 * Where a scene's two fields of words go: its `title` and its `text`. A text scene shows its
 * title as the label above its statement, or as the statement when it has no text; an end card
 * shows the sign-off (the brand, else the video's title) as its headline.
 */
export function fieldRoles(kind: SceneKind, hasText: boolean): { title: TextRole | null; text: TextRole | null } {
  switch (kind) {
    case 'title':
    case 'outro':
      return { title: 'headline', text: 'subtitle' };
    case 'text':
      return hasText ? { title: 'eyebrow', text: 'statement' } : { title: 'statement', text: null };
    case 'media':
    case 'code':
      return { title: 'heading', text: 'caption' };
  }
}

/** The layout a scene of this kind takes on a frame of this shape. */
export function layoutName(kind: SceneKind, shape: FrameShape): LayoutName {
  const stacked = shape !== 'wide';
  switch (kind) {
    case 'title':
      return 'title-card';
    case 'outro':
      return 'end-card';
    case 'text':
      return 'statement';
    case 'media':
      return stacked ? 'picture-stack' : 'picture-below-heading';
    case 'code':
      return stacked ? 'editor-stack' : 'editor-below-heading';
  }
}
