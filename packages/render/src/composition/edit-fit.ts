import { layoutFor } from '../draw/layout.ts';
import { layoutTexts } from '../layout/texts.ts';
import { sansStack } from '../style/fonts.ts';
import type { EditIssue } from './edit-form.ts';
import type { Composition } from './schema.ts';

/** A scene's heading or text typed in this edit, by its scene and its field on the form. */
export type TypedWords = { sceneId: string; field: 'title' | 'text'; path: string };

/**
 * The words typed in this edit that no size of their box holds whole on the video's frame: the
 * renderer would have to cut them, and a video never shows a cut its words did not have.
 */
export function wordsOffScreen(composition: Composition, typed: TypedWords[]): EditIssue[] {
  const frame = layoutFor(composition.width, composition.height);
  const family = sansStack(composition.brand.fontFamily);
  return typed.flatMap(({ sceneId, field, path }) => {
    const scene = composition.scenes.find((s) => s.id === sceneId);
    if (!scene?.[field]) return [];
    const texts = layoutTexts(scene, frame, family, composition.brand.name);
    const set = field === 'title'
      ? (scene.kind === 'media' || scene.kind === 'code' ? texts.heading : scene.kind === 'text' && scene.text ? texts.sub : texts.body)
      : (scene.kind === 'text' ? texts.body : texts.sub);
    return set && !set.fits ? [{ path, message: 'This does not fit on screen, even at the smallest type: shorten it.' }] : [];
  });
}
