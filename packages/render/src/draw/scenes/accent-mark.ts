import { easeInCubic, easeOutExpo, progress } from '../../style/easing.ts';
import type { Surface } from '../display-list.ts';
import type { Layout } from '../layout.ts';
import type { Theme } from '../theme.ts';

/**
 * A short accent bar just left of what it marks (a scene's heading, or its panel when there is
 * none; a picture card may be narrower than the content and centred): it grows in and out.
 */
export function accentMark(surface: Surface, layout: Layout, theme: Theme, beside: { left: number; top: number; height: number }, t: number, timing: { enterAt: number; leaveAt: number }, alpha: number): void {
  const width = Math.max(3, Math.round(8 * layout.unit));
  const grow = easeOutExpo(progress(t, timing.enterAt, 600)) * (1 - easeInCubic(progress(t, timing.leaveAt, 350)));
  surface.alpha = alpha;
  surface.fillRect(theme.accent, beside.left - Math.round(layout.margin * 0.45), beside.top, width, Math.round(beside.height * grow));
  surface.alpha = 1;
}
