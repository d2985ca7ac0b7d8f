import type { ScenePlan } from '../../plan/plan.ts';
import { easeInCubic, easeOutBack, easeOutExpo, progress } from '../../style/easing.ts';
import type { Surface } from '../display-list.ts';
import { driftOffset } from '../drift.ts';

/** The logo and headline have landed by then: the card drifts from there on (the line beneath is small, and still rising). */
const LANDED_MS = 900;
import { KineticText } from '../kinetic-text.ts';
import type { Layout } from '../layout.ts';
import type { Painter } from '../painter.ts';
import type { Theme } from '../theme.ts';

/**
 * Title card and end card: the logo lands, the title rises word by word, an accent bar
 * sweeps under it, the subtitle follows; the card drifts slowly up once the headline has
 * landed, and everything leaves together.
 */
export function titlePainter(plan: ScenePlan, layout: Layout, theme: Theme): Painter {
  const body = plan.body ? new KineticText(plan.body, theme.text, 'center') : null;
  const sub = plan.sub ? new KineticText(plan.sub, theme.muted, 'center') : null;
  const logo = theme.logo;
  const { logo: logoBox, headline, bar, subtitle } = plan.regions;
  const { enterAt, leaveAt } = plan;
  const centre = layout.width / 2;

  return {
    draw(surface: Surface, t: number, alpha: number) {
      const leave = easeInCubic(progress(t, leaveAt, 400));
      surface.save();
      surface.translate(0, driftOffset(t, enterAt + LANDED_MS, plan.scene.durationMs, layout.unit));
      if (logo && logoBox) {
        const land = easeOutBack(progress(t, enterAt, 650));
        const scale = 0.6 + 0.4 * land;
        surface.alpha = alpha * Math.min(1, land) * (1 - leave);
        const w = logoBox.width * scale;
        const h = logoBox.height * scale;
        surface.image(logo, centre - w / 2, logoBox.y + (logoBox.height - h) / 2, w, h);
        surface.alpha = 1;
      }
      const textEnter = enterAt + (logo ? 180 : 0);
      if (body && headline) body.draw(surface, t, headline.x, headline.y, { enterAt: textEnter, leaveAt }, alpha);
      if (bar) {
        const sweep = easeOutExpo(progress(t, textEnter + 350, 700));
        const width = Math.round(bar.width * sweep * (1 - leave));
        surface.alpha = alpha;
        surface.fillRoundRect(theme.accent, centre - width / 2, bar.y, width, bar.height, bar.height / 2);
        surface.alpha = 1;
      }
      if (sub && subtitle) sub.draw(surface, t, subtitle.x, subtitle.y, { enterAt: textEnter + 450, leaveAt }, alpha);
      surface.restore();
    },
    dispose() {},
  };
}
