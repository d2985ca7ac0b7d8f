import type { Scene } from '../composition/schema.ts';
import type { Layout } from '../draw/layout.ts';
import { fieldRoles, textBox, type TextRole } from './catalogue.ts';
import { fitInBox, type BoxedText } from './type-scale.ts';

/** A scene's words laid out in their boxes. */
export interface SceneTexts {
  /** The main text: the headline of a title or end card, the statement of a text scene. */
  body: BoxedText | null;
  /** The heading above a panel (media, code). */
  heading: BoxedText | null;
  /** A subtitle, a label or a caption. */
  sub: BoxedText | null;
}

/**
 * The texts of a scene, each in its box of the catalogue at the largest size it fits; a
 * subtitle, label or caption that only repeats the main text is left out. `signOff` is what an
 * end card or title card without a title shows: the brand's name.
 */
export function layoutTexts(scene: Scene, frame: Layout, family: string, signOff: string | null): SceneTexts {
  const set = (text: string | null | undefined, role: TextRole | null) => (text?.trim() && role ? fitInBox(text.trim(), textBox(role, frame, family)) : null);
  const title = scene.title?.trim() || null;
  const text = scene.text?.trim() || null;
  const roles = fieldRoles(scene.kind, Boolean(text));
  switch (scene.kind) {
    case 'title':
    case 'outro': {
      const headline = title ?? signOff;
      return { body: set(headline, roles.title), heading: null, sub: addsNothing(text, headline) ? null : set(text, roles.text) };
    }
    case 'text':
      return {
        body: text ? set(text, roles.text) : set(title, roles.title),
        heading: null,
        sub: text && !addsNothing(title, text) ? set(title, roles.title) : null,
      };
    case 'media':
    case 'code':
      return { body: null, heading: set(title, roles.title), sub: addsNothing(text, title) ? null : set(text, roles.text) };
  }
}

/**
 * Whether `extra` only repeats the start of `main`, whatever the case, spacing and punctuation:
 * the same words, or their first ones, as a shot title clipped with an ellipsis is; a clipped
 * last word need only begin the word it stands for.
 */
export function addsNothing(extra: string | null, main: string | null): boolean {
  const words = (text: string | null) => text?.toLocaleLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const said = words(extra);
  const shown = words(main);
  if (said.length === 0 || said.length > shown.length) return false;
  const clipped = /…\s*$/u.test(extra ?? '');
  return said.every((word, i) => word === shown[i] || (clipped && i === said.length - 1 && shown[i]!.startsWith(word)));
}
