export type Rect = { x: number; y: number; width: number; height: number };

/** Where things go on a frame of any aspect ratio; sizes scale with the short side. */
export interface Layout {
  width: number;
  height: number;
  /** 1 at 1080 pixels on the short side. */
  unit: number;
  margin: number;
  portrait: boolean;
  /** Brand bug (logo and name), top left. */
  bug: { x: number; y: number; height: number; fontSize: number };
  progress: { y: number; height: number };
  /** The area below the brand bug and above the progress bar. */
  content: Rect;
  headingSize: number;
  /** Space between a heading and the panel below it. */
  gap: number;
}

export function layoutFor(width: number, height: number): Layout {
  const unit = Math.min(width, height) / 1080;
  const portrait = height > width * 1.15;
  const margin = Math.round((portrait ? 64 : 76) * unit);
  const bugHeight = Math.round(44 * unit);
  const bugY = Math.round(margin * 0.6);
  const top = bugY + bugHeight + Math.round(36 * unit);
  const progressHeight = Math.max(2, Math.round(6 * unit));
  const bottom = height - Math.round(margin * 0.75);
  return {
    width, height, unit, margin, portrait,
    bug: { x: margin, y: bugY, height: bugHeight, fontSize: Math.round(28 * unit) },
    progress: { y: height - progressHeight, height: progressHeight },
    content: { x: margin, y: top, width: width - 2 * margin, height: bottom - top },
    headingSize: Math.round((portrait ? 60 : 56) * unit),
    gap: Math.round(28 * unit),
  };
}

/** The largest rectangle of `aspect` (width / height) inside `box`, centred. */
export function fitRect(aspect: number, box: Rect): Rect {
  const width = Math.round(Math.min(box.width, box.height * aspect));
  const height = Math.round(width / aspect);
  return { x: Math.round(box.x + (box.width - width) / 2), y: Math.round(box.y + (box.height - height) / 2), width, height };
}

/** The panel under a heading of `headingHeight` (0 for none). */
export function panelBox(layout: Layout, headingHeight: number): Rect {
  const offset = headingHeight ? headingHeight + layout.gap : 0;
  return { ...layout.content, y: layout.content.y + offset, height: layout.content.height - offset };
}
