import type { ScenePlan } from '../../plan/plan.ts';
import { easeInCubic, easeOutExpo, progress } from '../../style/easing.ts';
import type { Surface } from '../display-list.ts';
import { KineticText } from '../kinetic-text.ts';
import type { Layout } from '../layout.ts';
import type { Painter } from '../painter.ts';
import type { Theme } from '../theme.ts';

/** A text scene: an accent rule grows, the eyebrow fades in, the statement rises word by word. */
export function statementPainter(plan: ScenePlan, layout: Layout, theme: Theme): Painter {
  const u = layout.unit;
  const body = plan.body ? new KineticText(plan.body, theme.text) : null;
  const eyebrow = plan.sub ? new KineticText(plan.sub, theme.accentText) : null;
  const gap = Math.round(28 * u);
  const ruleWidth = Math.round(8 * u);
  const indent = ruleWidth + Math.round(36 * u);
  const blockHeight = (eyebrow ? eyebrow.height + gap : 0) + (body?.height ?? 0);
  const { content } = layout;
  const top = Math.round(content.y + (content.height - blockHeight) / 2);
  const { enterAt, leaveAt } = plan;

  return {
    draw(surface: Surface, t: number, alpha: number) {
      const grow = easeOutExpo(progress(t, enterAt, 700)) * (1 - easeInCubic(progress(t, leaveAt, 350)));
      surface.alpha = alpha;
      surface.fillRect(theme.accent, content.x, top, ruleWidth, Math.round(blockHeight * grow));
      surface.alpha = 1;
      let y = top;
      if (eyebrow) {
        eyebrow.draw(surface, t, content.x + indent, y, { enterAt, leaveAt, enterMs: 400 }, alpha);
        y += eyebrow.height + gap;
      }
      body?.draw(surface, t, content.x + indent, y, { enterAt: enterAt + (eyebrow ? 160 : 0), leaveAt }, alpha);
    },
    dispose() {},
  };
}
