import { easeInCubic, easeOutExpo, progress } from '../../style/easing.ts';
import type { Surface } from '../display-list.ts';
import type { Layout } from '../layout.ts';
import type { Theme } from '../theme.ts';

/** A short accent bar in the left margin beside a scene's heading (or its panel): it grows in and out. */
export function accentMark(surface: Surface, layout: Layout, theme: Theme, top: number, height: number, t: number, timing: { enterAt: number; leaveAt: number }, alpha: number): void {
  const width = Math.max(3, Math.round(8 * layout.unit));
  const grow = easeOutExpo(progress(t, timing.enterAt, 600)) * (1 - easeInCubic(progress(t, timing.leaveAt, 350)));
  surface.alpha = alpha;
  surface.fillRect(theme.accent, layout.content.x - Math.round(layout.margin * 0.45), top, width, Math.round(height * grow));
  surface.alpha = 1;
}
