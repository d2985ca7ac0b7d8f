import type { Aspect } from '@vp/contracts';
import { typedLineOf } from '../code/excerpt.ts';
import type { Composition, Scene } from '../composition/schema.ts';
import { layoutFor, type FrameShape } from '../draw/layout.ts';
import { shorten } from '../style/characters.ts';
import { layoutName, type LayoutName } from './catalogue.ts';

/** The words that name each layout of the catalogue, as a shot's `visual` gives them after "Layout (…):". */
export const LAYOUT_WORDS: Record<LayoutName, string> = {
  'title-card': 'a centred title card',
  'end-card': 'a centred end card',
  statement: 'a statement beside a tall accent rule',
  'picture-below-heading': 'the heading at the top left, the picture card filling the frame below it',
  'picture-stack': 'the heading at the top, the picture card across the full width below it',
  'editor-below-heading': 'the heading at the top left, the editor window filling the frame below it',
  'editor-stack': 'the heading at the top, the editor window across the full width and down the frame',
};

const SHAPE_WORDS: Record<FrameShape, string> = { wide: 'wide', square: 'square', tall: 'tall' };

/** "Layout (wide 16:9): …": the words a shot's visual carries for a scene of this layout, before its details. */
export function layoutPhrase(name: LayoutName, shape: FrameShape, aspect: string): string {
  return `Layout (${SHAPE_WORDS[shape]} ${aspect}): ${LAYOUT_WORDS[name]}`;
}

/** The layout's parts this scene has, after its name. */
function details(name: LayoutName, scene: Scene, composition: Composition): string {
  const logo = composition.brand.logoUrl ? ['logo'] : [];
  switch (name) {
    case 'title-card':
      return `: ${listing([...logo, 'headline', 'accent bar', ...(scene.text ? ['subtitle'] : [])])} stacked in the middle of the frame`;
    case 'end-card':
      return `: ${listing([...logo, 'sign-off', 'accent bar', ...(scene.text ? ['closing line'] : [])])} stacked in the middle of the frame`;
    case 'statement':
      return `${scene.text && scene.title ? ', its label above it' : ''}, centred in the frame`;
    case 'picture-below-heading':
      return scene.text ? ', the caption on an accent pill over the card\'s lower left corner' : '';
    case 'editor-below-heading':
      return scene.text ? ', the caption on an accent pill over its lower left corner' : '';
    case 'picture-stack':
      return scene.text ? ', the caption on an accent pill beneath the picture' : '';
    case 'editor-stack':
      return scene.text ? ', the caption on an accent pill beneath it' : '';
  }
}

const listing = (items: string[]) => (items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items.at(-1)}` : items.join(''));

const quoted = (text: string) => `“${shorten(text.replace(/\s+/g, ' ').trim(), 80)}”`;
const code = (text: string) => `\`${shorten(text.trim(), 90)}\``;

/**
 * What a scene shows and how it moves, in the words of the catalogue: what the renderer draws
 * for it, and where. A code shot cut to its pictures is two scenes, described in turn.
 */
export function describeScene(scene: Scene, composition: Composition, aspect: Aspect, last: boolean): string {
  const shape = layoutFor(composition.width, composition.height).shape;
  const name = layoutName(scene.kind, shape);
  return `${motionOf(scene, composition, last)} ${layoutPhrase(name, shape, aspect)}${details(name, scene, composition)}.`;
}

function motionOf(scene: Scene, composition: Composition, last: boolean): string {
  switch (scene.kind) {
    case 'title':
    case 'outro': {
      const logo = composition.brand.logoUrl ? 'The logo lands, then the' : 'The';
      const rest = last ? ' Everything leaves together and the frame comes to rest on the background.' : '';
      return `${logo} headline rises word by word and an accent bar sweeps under it${scene.text ? ', the line beneath following' : ''}; once the headline has landed, the card drifts slowly upwards.${rest}`;
    }
    case 'text':
      return `An accent rule grows and the statement rises word by word${scene.text && scene.title ? ' under its label' : ''}; its key words then light up in the accent colour one after another, and a statement held longer drifts slowly upwards.`;
    case 'media':
      return pictures(scene, composition);
    case 'code':
      return editor(scene);
  }
}

function pictures(scene: Scene, composition: Composition): string {
  const assets = new Map(composition.media.map((asset) => [asset.id, asset]));
  const shown = scene.media.flatMap((placement) => {
    const asset = assets.get(placement.assetId);
    return asset ? [`${asset.kind === 'video' ? 'the clip' : 'the picture'} ${quoted(asset.name)}${asset.kind === 'video' ? ', playing muted' : ''}`] : [];
  });
  if (!shown.length) return 'A picture card slides up.';
  const cut = scene.id.endsWith('-media') ? 'It cuts to ' : '';
  const which = shown.length === 1 ? shown[0]! : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
  const turns = shown.length > 1 ? ', taking turns with a crossfade,' : '';
  return `${cut ? `${cut}${which}` : capitalise(which)}${turns} in a rounded card that slides up as the camera pushes slowly across it.`;
}

function editor(scene: Scene): string {
  const excerpt = scene.code;
  if (!excerpt) return 'An editor window slides up.';
  const counts = `(+${excerpt.additions} −${excerpt.deletions})`;
  if (!excerpt.lines.length) return `The editor for ${code(excerpt.path)} ${counts} slides up showing what the change does; a highlight sweeps down its lines until the shot ends.`;
  const typed = typedLineOf(excerpt);
  const line = typed === null ? '' : `the line ${code(excerpt.lines[typed]!.text)} types itself in and glows in the accent colour, then `;
  return `The editor for ${code(excerpt.path)} ${counts} slides up and scrolls to the change; ${line}a highlight sweeps down the changed lines until the shot ends.`;
}

const capitalise = (text: string) => text.charAt(0).toLocaleUpperCase('en') + text.slice(1);
