/**
 * What a pitch writer needs of the renderer to write to the frames it will draw: the box each
 * of a shot's words is set in (the renderer's own font metrics and type scale), and the words
 * that describe each shot's layout and motion (the catalogue's). `@vp/render/layouts`.
 */
import type { Brief, Pitch, Shot } from '@vp/contracts';
import { composeProduction, shotSceneId, shotSceneKind, signOff } from './composition/compose-production.ts';
import { ASPECT_SIZES } from './composition/frame-size.ts';
import type { Composition, SceneKind } from './composition/schema.ts';
import { layoutFor } from './draw/layout.ts';
import { fieldRoles, textBox } from './layout/catalogue.ts';
import { describeScene } from './layout/describe.ts';
import { layoutTexts } from './layout/texts.ts';
import { sansStack } from './style/fonts.ts';
import type { TextBox } from './layout/type-scale.ts';

export { fitsBox, fitsComfortably, type TextBox } from './layout/type-scale.ts';
export { LAYOUT_WORDS, layoutPhrase } from './layout/describe.ts';

/**
 * Where a shot's words go on screen: its `title` and its `text` (null where the renderer does
 * not show the field: an end card shows the sign-off instead of its title), and, for a
 * statement, where its title goes when it has no text (the statement itself).
 */
export interface ShotBoxes {
  kind: SceneKind;
  title: TextBox | null;
  text: TextBox | null;
  titleAlone: TextBox | null;
}

/** The boxes of a shot at `index` of `count` in a pitch for this brief. */
export function shotBoxes(brief: Brief, shot: Pick<Shot, 'mediaIds' | 'codePaths'>, index: number, count: number): ShotBoxes {
  const kind = shotSceneKind(brief, shot, index, count);
  const frame = frameOf(brief);
  const family = sansStack(brief.brand.fontFamily);
  const box = (role: ReturnType<typeof fieldRoles>['title']) => (role ? textBox(role, frame, family) : null);
  const roles = fieldRoles(kind, true);
  return {
    kind,
    title: kind === 'outro' ? null : box(roles.title),
    text: box(roles.text),
    titleAlone: kind === 'text' ? box(fieldRoles(kind, false).title) : null,
  };
}

/** What the end card shows as its headline: the brand's name, else (or when it is too long) the video's title. */
export const signOffOf = signOff;

/** The end card's headline box, where the video's title goes when the brand has no name. */
export function signOffBox(brief: Brief): TextBox {
  return textBox('headline', frameOf(brief), sansStack(brief.brand.fontFamily));
}

/** Each shot's `visual`: what its scenes show and how they move, and their layout, from the catalogue. */
export function describeShots(brief: Brief, pitch: Pitch): string[] {
  const composition = composeProduction({ brief, pitch });
  const last = composition.scenes.at(-1)?.id;
  return pitch.shots.map((shot) => composition.scenes
    .filter((scene) => scene.id === shotSceneId(shot) || scene.id === `${shotSceneId(shot)}-media`)
    .map((scene) => describeScene(scene, composition, brief.format.aspect, scene.id === last))
    .join(' '));
}

/** The words of a composition that no step of their box's type scale holds whole: what a writer must never leave. */
export function unfittedTexts(composition: Composition): { sceneId: string; text: string }[] {
  const frame = layoutFor(composition.width, composition.height);
  const family = sansStack(composition.brand.fontFamily);
  return composition.scenes.flatMap((scene) => {
    const texts = layoutTexts(scene, frame, family, composition.brand.name);
    return [texts.body, texts.heading, texts.sub].flatMap((text) => (text && !text.fits ? [{ sceneId: scene.id, text: text.lines.join(' ') }] : []));
  });
}

function frameOf(brief: Brief) {
  const { width, height } = ASPECT_SIZES[brief.format.aspect];
  return layoutFor(width, height);
}
