import type { SceneKind } from '../composition/schema.ts';
import { fitRect, union, type Layout, type Rect } from '../draw/layout.ts';
import { measure, type FittedText } from '../draw/text.ts';
import type { SceneTexts } from './texts.ts';

/** The named places of a scene's frame where the renderer draws: what the layout test checks. */
export type RegionName = 'logo' | 'headline' | 'bar' | 'subtitle' | 'rule' | 'eyebrow' | 'statement' | 'heading' | 'mark' | 'panel' | 'caption';
export type Regions = Partial<Record<RegionName, Rect>>;

export interface Arrangement {
  regions: Regions;
  /** One card per picture of a media scene, in order. */
  cards: Rect[];
}

type Size = { width: number; height: number };

/** A text block's size as the kinetic type draws it. */
export function blockSize(text: FittedText | null): Size {
  if (!text) return { width: 0, height: 0 };
  const widths = text.lines.map((line) => measure(line, text.size, text.family, text.weight));
  return { width: Math.ceil(Math.max(0, ...widths)), height: text.lineHeight * text.lines.length };
}

/** A caption's pill: its text with padding around it. */
export function captionSize(text: FittedText | null): Size {
  if (!text) return { width: 0, height: 0 };
  const block = blockSize(text);
  return { width: block.width + 2 * Math.round(text.size * 0.9), height: block.height + 2 * Math.round(text.size * 0.55) };
}

/** The radius of a picture card's and an editor's corners. */
export const cardRadius = (frame: Layout, kind: SceneKind) => Math.round((kind === 'media' ? 22 : 18) * frame.unit);

/**
 * Where each part of a scene goes on the frame: the catalogue's layout for its kind and the
 * frame's shape, sized by its texts, its logo and its pictures' shapes (width / height).
 */
export function arrange(kind: SceneKind, frame: Layout, texts: SceneTexts, logo: Size | null, pictures: number[], editorHeight = Infinity): Arrangement {
  switch (kind) {
    case 'title':
    case 'outro':
      return { regions: titleCard(kind, frame, texts, logo), cards: [] };
    case 'text':
      return { regions: statement(frame, texts), cards: [] };
    case 'media':
    case 'code':
      return frame.shape === 'wide' ? belowHeading(kind, frame, texts, pictures, editorHeight) : stacked(kind, frame, texts, pictures, editorHeight);
  }
}

/** An editor needs no more height than its lines take, but keeps this share of the room it has. */
export const EDITOR_LEAST_SHARE = 0.4;

/** Logo, headline, accent bar and subtitle, centred as one block (in a tall frame, with more room between them). */
function titleCard(kind: SceneKind, frame: Layout, texts: SceneTexts, logo: Size | null): Regions {
  const u = frame.unit;
  const wide = frame.shape === 'wide';
  const logoHeight = logo ? Math.round((kind === 'outro' ? (wide ? 150 : 220) : wide ? 96 : 180) * u) : 0;
  const logoWidth = logo ? Math.round((logo.width / logo.height) * logoHeight) : 0;
  const gap = Math.round((wide ? 36 : 64) * u);
  const bar = { width: Math.round((wide ? 180 : 260) * u), height: Math.round((wide ? 8 : 10) * u) };
  const body = blockSize(texts.body);
  const sub = blockSize(texts.sub);
  const height = (logo ? logoHeight + gap : 0) + body.height + gap + bar.height + (texts.sub ? gap + sub.height : 0);
  const area = wide ? { y: 0, height: frame.height } : frame.content;
  const centre = frame.width / 2;
  const place = (size: Size, y: number): Rect => ({ x: Math.round(centre - size.width / 2), y, width: size.width, height: size.height });
  let y = Math.round(area.y + (area.height - height) / 2);
  const regions: Regions = {};
  if (logo) {
    regions.logo = place({ width: logoWidth, height: logoHeight }, y);
    y += logoHeight + gap;
  }
  if (texts.body) regions.headline = place(body, y);
  y += body.height + gap;
  regions.bar = place(bar, y);
  y += bar.height + gap;
  if (texts.sub) regions.subtitle = place(sub, y);
  return regions;
}

/** An accent rule, the label and the statement beside it, centred in the content's height. */
function statement(frame: Layout, texts: SceneTexts): Regions {
  const u = frame.unit;
  const { content } = frame;
  const rule = Math.round(8 * u);
  const indent = rule + Math.round(36 * u);
  const gap = Math.round((frame.shape === 'wide' ? 28 : 40) * u);
  const eyebrow = blockSize(texts.sub);
  const body = blockSize(texts.body);
  const height = (texts.sub ? eyebrow.height + gap : 0) + body.height;
  const top = Math.round(content.y + (content.height - height) / 2);
  const regions: Regions = { rule: { x: content.x, y: top, width: rule, height } };
  if (texts.sub) regions.eyebrow = { x: content.x + indent, y: top, ...eyebrow };
  if (texts.body) regions.statement = { x: content.x + indent, y: top + (texts.sub ? eyebrow.height + gap : 0), ...body };
  return regions;
}

/** The accent mark just left of what it marks: the heading, or the panel when there is none. */
function mark(frame: Layout, beside: Rect, headed: boolean): Rect {
  return { x: beside.x - Math.round(frame.margin * 0.45), y: beside.y, width: Math.max(3, Math.round(8 * frame.unit)), height: headed ? beside.height : Math.round(120 * frame.unit) };
}

/** Wide frames: the heading at the top left, the picture or editor filling the frame below it (an editor as far as its lines need), the caption on its lower left corner. */
function belowHeading(kind: SceneKind, frame: Layout, texts: SceneTexts, pictures: number[], editorHeight: number): Arrangement {
  const { content, gap } = frame;
  const heading = blockSize(texts.heading);
  const offset = texts.heading ? heading.height + gap : 0;
  const room = content.height - offset;
  const panel = { ...content, y: content.y + offset, height: Math.round(Math.min(room, Math.max(editorHeight, room * EDITOR_LEAST_SHARE))) };
  const cards = kind === 'media' ? pictures.map((aspect) => fitRect(aspect, panel)) : [];
  // The caption sits on the last picture's card, or on the editor.
  const holder = cards.at(-1) ?? panel;
  const radius = cardRadius(frame, kind);
  const caption = captionSize(texts.sub);
  const regions: Regions = { panel: union(cards) ?? panel };
  if (texts.heading) regions.heading = { x: content.x, y: content.y, ...heading };
  regions.mark = mark(frame, regions.heading ?? cards[0] ?? panel, Boolean(texts.heading));
  if (texts.sub) regions.caption = { x: holder.x + radius, y: holder.y + holder.height - radius - caption.height, ...caption };
  return { regions, cards };
}

/**
 * Square and tall frames: heading, then the picture or editor across the full width, then the
 * caption beneath it. A picture's card takes the picture's shape, cropped at the sides by at
 * most a tenth to fill more of the frame, or at the top and bottom when the picture is taller
 * than the room; an editor takes the room its lines need (see `EDITOR_LEAST_SHARE`).
 */
/** A picture's card in a square or tall frame may be this much taller than the picture's shape. */
const SIDE_CROP = 1.1;

function stacked(kind: SceneKind, frame: Layout, texts: SceneTexts, pictures: number[], editorHeight: number): Arrangement {
  const { content, gap } = frame;
  const heading = blockSize(texts.heading);
  const caption = captionSize(texts.sub);
  const above = texts.heading ? heading.height + gap : 0;
  const below = texts.sub ? caption.height + gap : 0;
  const room = content.height - above - below;
  const natural = content.width / (pictures[0] ?? 16 / 9);
  const height = Math.round(kind === 'media' ? Math.min(room, natural * SIDE_CROP) : Math.min(room, Math.max(editorHeight, room * EDITOR_LEAST_SHARE)));
  const top = Math.round(content.y + (content.height - above - height - below) / 2);
  const panel = { x: content.x, y: top + above, width: content.width, height };
  const regions: Regions = { panel };
  if (texts.heading) regions.heading = { x: content.x, y: top, ...heading };
  regions.mark = mark(frame, regions.heading ?? panel, Boolean(texts.heading));
  if (texts.sub) regions.caption = { x: content.x, y: panel.y + panel.height + gap, ...caption };
  return { regions, cards: kind === 'media' ? pictures.map(() => panel) : [] };
}
