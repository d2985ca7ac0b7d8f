import type { Rect } from '../../draw/layout.ts';
import { easeInCubic, easeOutExpo, progress } from '../../style/easing.ts';
import type { Surface } from '../display-list.ts';
import type { Theme } from '../theme.ts';

/**
 * A short accent bar just left of what it marks (a scene's heading, or its panel when there is
 * none; a picture card may be narrower than the content and centred): it grows in and out.
 */
export function accentMark(surface: Surface, theme: Theme, mark: Rect, t: number, timing: { enterAt: number; leaveAt: number }, alpha: number): void {
  const grow = easeOutExpo(progress(t, timing.enterAt, 600)) * (1 - easeInCubic(progress(t, timing.leaveAt, 350)));
  surface.alpha = alpha;
  surface.fillRect(theme.accent, mark.x, mark.y, mark.width, Math.round(mark.height * grow));
  surface.alpha = 1;
}
