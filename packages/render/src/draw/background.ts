import type { Canvas, SKRSContext2D } from '../canvas.ts';
import { readableOn, withAlpha } from '../style/color.ts';
import type { Layout, Rect } from './layout.ts';
import { layer } from './shapes.ts';
import type { Theme } from './theme.ts';

/**
 * The brand background with two soft glows, drawn once. It stays still on purpose: the
 * content moves over it, and a still background is what lets x264 skip every block that
 * content does not touch (a drifting gradient makes it code the whole frame every frame).
 */
export class Background {
  private readonly canvas: Canvas;

  constructor(layout: Layout, theme: Theme) {
    const { width, height } = layout;
    this.canvas = layer(width, height, (ctx) => {
      ctx.fillStyle = theme.background;
      ctx.fillRect(0, 0, width, height);
      const glow = (x: number, y: number, radius: number, color: string) => {
        const gradient = ctx.createRadialGradient(x, y, 0, x, y, radius);
        gradient.addColorStop(0, color);
        gradient.addColorStop(1, withAlpha(theme.background, 0));
        ctx.fillStyle = gradient;
        ctx.fillRect(x - radius, y - radius, 2 * radius, 2 * radius);
      };
      const reach = Math.max(width, height) * 0.42;
      // The theme's colours for words read over both glows at their strongest (`Theme.backdrops`).
      glow(width, 0, reach, withAlpha(theme.accent, theme.glows.accent));
      glow(0, height, reach * 0.8, withAlpha(readableOn(theme.background), theme.glows.text));
    }, { opaque: true });
  }

  /** Draws the background's `area` (the whole frame by default) at the context's origin. */
  draw(ctx: SKRSContext2D, area: Rect = { x: 0, y: 0, width: this.canvas.width, height: this.canvas.height }): void {
    const { x, y, width, height } = area;
    ctx.drawImage(this.canvas, x, y, width, height, 0, 0, width, height);
  }
}
