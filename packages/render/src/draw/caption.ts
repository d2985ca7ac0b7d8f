import type { Canvas } from '../canvas.ts';
import { easeInCubic, easeOutCubic, progress } from '../style/easing.ts';
import { font } from '../style/fonts.ts';
import type { Surface } from './display-list.ts';
import type { Layout } from './layout.ts';
import { layer } from './shapes.ts';
import { measure, type FittedText } from './text.ts';
import type { Theme } from './theme.ts';

/** A lower-third: the text on an accent pill that slides in from the left. */
export class Caption {
  private readonly canvas: Canvas;

  constructor(text: FittedText, layout: Layout, theme: Theme) {
    const padX = Math.round(text.size * 0.9);
    const padY = Math.round(text.size * 0.55);
    const width = Math.max(...text.lines.map((line) => measure(line, text.size, text.family, text.weight))) + 2 * padX;
    const height = text.lines.length * text.lineHeight + 2 * padY;
    this.canvas = layer(width, height, (ctx) => {
      ctx.fillStyle = theme.accent;
      ctx.beginPath();
      ctx.roundRect(0, 0, width, height, Math.round(14 * layout.unit));
      ctx.fill();
      ctx.font = font(text.size, text.family, text.weight);
      ctx.fillStyle = theme.onAccent;
      ctx.textBaseline = 'middle';
      text.lines.forEach((line, i) => ctx.fillText(line, padX, padY + (i + 0.5) * text.lineHeight));
    });
  }

  get height(): number {
    return this.canvas.height;
  }

  /** Draws with the bottom-left corner at (x, bottom). */
  draw(surface: Surface, t: number, x: number, bottom: number, timing: { enterAt: number; leaveAt: number }, alpha: number): void {
    const enter = easeOutCubic(progress(t, timing.enterAt, 500));
    const leave = easeInCubic(progress(t, timing.leaveAt, 300));
    const opacity = alpha * enter * (1 - leave);
    if (opacity <= 0.003) return;
    surface.alpha = opacity;
    surface.image(this.canvas, Math.round(x - (1 - enter) * this.canvas.height * 1.5), Math.round(bottom - this.canvas.height));
    surface.alpha = 1;
  }
}
