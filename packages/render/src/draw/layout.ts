export type Rect = { x: number; y: number; width: number; height: number };

/**
 * The three shapes of frame the layouts are made for: wide (16:9, 4:3, 3:2, 21:9), square
 * (1:1, 4:5) and tall (3:4, 2:3, 9:16).
 */
export type FrameShape = 'wide' | 'square' | 'tall';

export function shapeOf(width: number, height: number): FrameShape {
  const ratio = width / height;
  if (ratio > 1.15) return 'wide';
  return ratio >= 0.78 ? 'square' : 'tall';
}

/** Where things go on a frame of any aspect ratio; sizes scale with the short side. */
export interface Layout {
  width: number;
  height: number;
  /** 1 at 1080 pixels on the short side. */
  unit: number;
  margin: number;
  shape: FrameShape;
  portrait: boolean;
  /** The frame inside its margins: what the layouts fill. */
  safe: Rect;
  /** Brand bug (logo and name), top left. */
  bug: { x: number; y: number; height: number; fontSize: number };
  progress: { y: number; height: number };
  /** The area below the brand bug and above the bottom margin. */
  content: Rect;
  /** Space between a heading and the panel below it. */
  gap: number;
}

export function layoutFor(width: number, height: number): Layout {
  const unit = Math.min(width, height) / 1080;
  const shape = shapeOf(width, height);
  const portrait = height > width * 1.15;
  // Square and tall frames keep their margins narrow: what they show is made to fill their width.
  const margin = Math.round((shape === 'wide' ? 76 : 64) * unit);
  const bugHeight = Math.round(44 * unit);
  const bugY = Math.round(margin * 0.6);
  const top = bugY + bugHeight + Math.round(36 * unit);
  const progressHeight = Math.max(2, Math.round(6 * unit));
  const bottom = height - Math.round(margin * 0.75);
  return {
    width, height, unit, margin, shape, portrait,
    safe: { x: margin, y: margin, width: width - 2 * margin, height: height - 2 * margin },
    bug: { x: margin, y: bugY, height: bugHeight, fontSize: Math.round(28 * unit) },
    progress: { y: height - progressHeight, height: progressHeight },
    content: { x: margin, y: top, width: width - 2 * margin, height: bottom - top },
    gap: Math.round((shape === 'wide' ? 28 : 36) * unit),
  };
}

/** The largest rectangle of `aspect` (width / height) inside `box`, centred. */
export function fitRect(aspect: number, box: Rect): Rect {
  const width = Math.round(Math.min(box.width, box.height * aspect));
  const height = Math.round(width / aspect);
  return { x: Math.round(box.x + (box.width - width) / 2), y: Math.round(box.y + (box.height - height) / 2), width, height };
}

/** The smallest rectangle holding all of `rects`. */
export function union(rects: Rect[]): Rect | null {
  if (!rects.length) return null;
  const x = Math.min(...rects.map((r) => r.x));
  const y = Math.min(...rects.map((r) => r.y));
  return { x, y, width: Math.max(...rects.map((r) => r.x + r.width)) - x, height: Math.max(...rects.map((r) => r.y + r.height)) - y };
}
