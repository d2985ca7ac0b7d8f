import type { ScenePlan } from '../../plan/plan.ts';
import { easeInCubic, easeOutBack, easeOutExpo, progress } from '../../style/easing.ts';
import type { Surface } from '../display-list.ts';
import { KineticText } from '../kinetic-text.ts';
import type { Layout } from '../layout.ts';
import type { Painter } from '../painter.ts';
import type { Theme } from '../theme.ts';

/**
 * Title card and end card: the logo lands, the title rises word by word, an accent bar
 * sweeps under it, the subtitle follows; everything leaves together.
 */
export function titlePainter(plan: ScenePlan, layout: Layout, theme: Theme): Painter {
  const u = layout.unit;
  const body = plan.body ? new KineticText(plan.body, theme.text, 'center') : null;
  const sub = plan.sub ? new KineticText(plan.sub, theme.muted, 'center') : null;
  const logo = theme.logo;
  const logoHeight = logo ? Math.round((plan.scene.kind === 'outro' ? 150 : 96) * u) : 0;
  const logoWidth = logo ? Math.round((logo.width / logo.height) * logoHeight) : 0;
  const barHeight = Math.round(8 * u);
  const gap = Math.round(36 * u);
  const blockHeight = (logo ? logoHeight + gap : 0) + (body?.height ?? 0) + gap + barHeight + (sub ? gap + sub.height : 0);
  const top = Math.round((layout.height - blockHeight) / 2);
  const centerX = layout.width / 2;
  const { enterAt, leaveAt } = plan;

  return {
    draw(surface: Surface, t: number, alpha: number) {
      const leave = easeInCubic(progress(t, leaveAt, 400));
      let y = top;
      if (logo) {
        const land = easeOutBack(progress(t, enterAt, 650));
        const scale = 0.6 + 0.4 * land;
        surface.alpha = alpha * Math.min(1, land) * (1 - leave);
        const w = logoWidth * scale;
        const h = logoHeight * scale;
        surface.image(logo, centerX - w / 2, y + (logoHeight - h) / 2, w, h);
        surface.alpha = 1;
        y += logoHeight + gap;
      }
      const textEnter = enterAt + (logo ? 180 : 0);
      if (body) {
        body.draw(surface, t, centerX - body.width / 2, y, { enterAt: textEnter, leaveAt }, alpha);
        y += body.height + gap;
      }
      const sweep = easeOutExpo(progress(t, textEnter + 350, 700));
      const barWidth = Math.round(180 * u * sweep * (1 - leave));
      surface.alpha = alpha;
      surface.fillRoundRect(theme.accent, centerX - barWidth / 2, y, barWidth, barHeight, barHeight / 2);
      surface.alpha = 1;
      y += barHeight + gap;
      sub?.draw(surface, t, centerX - sub.width / 2, y, { enterAt: textEnter + 450, leaveAt }, alpha);
    },
    dispose() {},
  };
}
