import type { Canvas } from '../canvas.ts';
import { font } from '../style/fonts.ts';
import type { Surface } from './display-list.ts';
import type { Layout, Rect } from './layout.ts';
import { layer } from './shapes.ts';
import { measure } from './text.ts';
import type { Theme } from './theme.ts';

/** What stays on screen across scenes: the brand bug, the logo and name at the top left. */
export class Chrome {
  private readonly bug: Canvas | null;

  /** Where the bug sits on the frame, if there is one. */
  get area(): Rect | null {
    return this.bug ? { x: this.layout.bug.x, y: this.layout.bug.y, width: this.bug.width, height: this.bug.height } : null;
  }

  constructor(private readonly layout: Layout, theme: Theme) {
    const { height } = layout.bug;
    const logo = theme.logo;
    const logoWidth = logo ? Math.round((logo.width / logo.height) * height) : 0;
    // A long name is set smaller to fit across the frame, down to two thirds of its size; longer still, the logo stands alone.
    const room = layout.width - 2 * layout.margin - logoWidth - height;
    const fits = (size: number) => measure(theme.brandName ?? '', size, theme.sans, 700) <= room;
    const fontSize = [layout.bug.fontSize, Math.round(layout.bug.fontSize * 0.83), Math.round(layout.bug.fontSize * 0.67)].find(fits);
    const name = theme.brandName && fontSize ? theme.brandName : null;
    if (!logo && !name) {
      this.bug = null;
      return;
    }
    const gap = logo && name ? Math.round(height * 0.35) : 0;
    const nameWidth = name && fontSize ? measure(name, fontSize, theme.sans, 700) : 0;
    this.bug = layer(logoWidth + gap + nameWidth + 4, height, (ctx) => {
      if (logo) ctx.drawImage(logo, 0, 0, logoWidth, height);
      if (name && fontSize) {
        ctx.font = font(fontSize, theme.sans, 700);
        ctx.fillStyle = theme.text;
        ctx.textBaseline = 'middle';
        ctx.fillText(name, logoWidth + gap, height / 2);
      }
    });
  }

  /** `alpha` fades the bug out on scenes that show the brand large. */
  draw(surface: Surface, alpha: number): void {
    if (!this.bug || alpha <= 0.003) return;
    surface.alpha = alpha * 0.92;
    surface.image(this.bug, this.layout.bug.x, this.layout.bug.y);
    surface.alpha = 1;
  }
}
