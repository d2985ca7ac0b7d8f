import { EYEBROW_LEAD_MS, type ScenePlan } from '../../plan/plan.ts';
import { easeInCubic, easeOutExpo, progress } from '../../style/easing.ts';
import type { Surface } from '../display-list.ts';
import { DRIFT_AFTER_MS, driftOffset } from '../drift.ts';
import { KineticText } from '../kinetic-text.ts';
import type { Layout } from '../layout.ts';
import type { Painter } from '../painter.ts';
import type { Theme } from '../theme.ts';

/**
 * A text scene: an accent rule grows, the label fades in, the statement rises word by word;
 * then its key words light up in the accent colour one after another, as the card drifts up.
 */
export function statementPainter(plan: ScenePlan, layout: Layout, theme: Theme): Painter {
  const body = plan.body ? new KineticText(plan.body, theme.text, 'left', theme.accentText) : null;
  const eyebrow = plan.sub ? new KineticText(plan.sub, theme.accentText) : null;
  const { rule, eyebrow: label, statement } = plan.regions;
  const { enterAt, leaveAt, lighting } = plan;
  const bodyEnter = enterAt + (eyebrow ? EYEBROW_LEAD_MS : 0);

  return {
    draw(surface: Surface, t: number, alpha: number) {
      surface.save();
      surface.translate(0, driftOffset(t, plan.settledAt + DRIFT_AFTER_MS, plan.scene.durationMs, layout.unit));
      if (rule) {
        const grow = easeOutExpo(progress(t, enterAt, 700)) * (1 - easeInCubic(progress(t, leaveAt, 350)));
        surface.alpha = alpha;
        surface.fillRect(theme.accent, rule.x, rule.y, rule.width, Math.round(rule.height * grow));
        surface.alpha = 1;
      }
      if (eyebrow && label) eyebrow.draw(surface, t, label.x, label.y, { enterAt, leaveAt, enterMs: 400 }, alpha);
      if (body && statement) body.draw(surface, t, statement.x, statement.y, { enterAt: bodyEnter, leaveAt }, alpha, lighting);
      surface.restore();
    },
    dispose() {},
  };
}
