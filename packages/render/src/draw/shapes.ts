import { createCanvas, type Canvas, type SKRSContext2D } from '../canvas.ts';
import type { Surface } from './display-list.ts';
import type { Rect } from './layout.ts';

export function roundedRect(ctx: SKRSContext2D, rect: Rect, radius: number): void {
  ctx.beginPath();
  ctx.roundRect(rect.x, rect.y, rect.width, rect.height, radius);
}

/**
 * A layer drawn once: `paint` receives a context the size of the layer. An `opaque` layer, one
 * that `paint` covers entirely, starts black and is drawn as opaque: about twice as fast.
 */
export function layer(width: number, height: number, paint: (ctx: SKRSContext2D) => void, options: { opaque?: boolean } = {}): Canvas {
  const canvas = createCanvas(Math.max(1, Math.ceil(width)), Math.max(1, Math.ceil(height)));
  paint(canvas.getContext('2d', { alpha: !options.opaque }));
  return canvas;
}

type Strip = { canvas: Canvas; x: number; y: number };

/**
 * The soft drop shadow around a rounded panel, drawn once and kept as four strips around
 * the panel's edges: a frame blends only the fringe, not the whole area the panel covers.
 */
export class PanelShadow {
  private readonly strips: Strip[];

  constructor(rect: Rect, radius: number, shadow: { blur: number; color: string; offsetY: number }) {
    const pad = Math.ceil(shadow.blur * 1.5 + Math.abs(shadow.offsetY));
    const width = Math.ceil(rect.width + 2 * pad);
    const height = Math.ceil(rect.height + 2 * pad);
    const inner = { x: pad, y: pad, width: rect.width, height: rect.height };
    const full = layer(width, height, (ctx) => {
      ctx.shadowColor = shadow.color;
      ctx.shadowBlur = shadow.blur;
      ctx.shadowOffsetY = shadow.offsetY;
      ctx.fillStyle = '#000';
      roundedRect(ctx, inner, radius);
      ctx.fill();
      // The panel covers its own area: keep only the shadow around it.
      ctx.shadowColor = 'transparent';
      ctx.globalCompositeOperation = 'destination-out';
      roundedRect(ctx, inner, radius);
      ctx.fill();
    });
    const edge = pad + radius;
    const x0 = Math.floor(rect.x) - pad;
    const y0 = Math.floor(rect.y) - pad;
    const slice = (sx: number, sy: number, sw: number, sh: number): Strip => ({
      canvas: layer(sw, sh, (ctx) => ctx.drawImage(full, sx, sy, sw, sh, 0, 0, sw, sh)),
      x: x0 + sx, y: y0 + sy,
    });
    this.strips = [
      slice(0, 0, width, edge),
      slice(0, height - edge, width, edge),
      slice(0, edge, edge, height - 2 * edge),
      slice(width - edge, edge, edge, height - 2 * edge),
    ];
  }

  draw(surface: Surface, dy = 0): void {
    for (const strip of this.strips) surface.image(strip.canvas, strip.x, strip.y + dy);
  }
}
