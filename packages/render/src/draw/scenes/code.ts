import type { Canvas } from '../../canvas.ts';
import type { CodePlan } from '../../plan/code-plan.ts';
import type { ScenePlan } from '../../plan/plan.ts';
import { mix, readableOn, withAlpha } from '../../style/color.ts';
import { easeInCubic, easeInOutCubic, easeOutCubic, progress } from '../../style/easing.ts';
import { font } from '../../style/fonts.ts';
import { Caption } from '../caption.ts';
import { drawAsRecording, type Surface } from '../display-list.ts';
import { KineticText } from '../kinetic-text.ts';
import type { Layout } from '../layout.ts';
import type { Painter } from '../painter.ts';
import { layer, PanelShadow, roundedRect } from '../shapes.ts';
import { measure, wrap } from '../text.ts';
import type { Theme } from '../theme.ts';
import { accentMark } from './accent-mark.ts';

const ADDED = '#2ea043';
const REMOVED = '#f85149';

/**
 * An editor window: title bar with the file and its +/- counts, line numbers, syntax
 * colours, added and removed lines marked; it scrolls to the first change, then the
 * changed lines light up. Window and code are drawn once; a frame copies the window and
 * replays the lines in view.
 */
export function codePainter(plan: ScenePlan, layout: Layout, theme: Theme): Painter {
  const code = plan.code as CodePlan;
  const u = layout.unit;
  const radius = Math.round(18 * u);
  const heading = plan.heading ? new KineticText(plan.heading, theme.text) : null;
  const caption = plan.sub ? new Caption(plan.sub, layout, theme) : null;
  const window = windowLayer(code, theme, radius, u);
  const pad = Math.round(20 * u);
  // The code's layer can be thousands of pixels tall: see `drawAsRecording`.
  const lines = drawAsRecording(code.rows.length ? codeLayer(code, theme, pad) : noteLayer(code, theme, u, pad));
  const { viewport, lineHeight } = code;
  const { enterAt, leaveAt } = plan;
  const changed = code.rows.flatMap((row, i) => (row.change === 'context' ? [] : [{ i, color: row.change === 'added' ? ADDED : REMOVED }]));

  return {
    draw(surface: Surface, t: number, alpha: number) {
      heading?.draw(surface, t, layout.content.x, layout.content.y, { enterAt, leaveAt }, alpha);
      const beside = { left: heading ? layout.content.x : code.window.x, top: heading ? layout.content.y : code.window.y, height: heading?.height ?? Math.round(120 * u) };
      accentMark(surface, layout, theme, beside, t, { enterAt, leaveAt }, alpha);
      const enter = easeOutCubic(progress(t, enterAt + 100, 650));
      const leave = easeInCubic(progress(t, leaveAt + 100, 400));
      const opacity = alpha * enter * (1 - leave);
      if (opacity <= 0.003) return;
      const dy = Math.round((1 - enter) * 60 * u);
      surface.alpha = opacity;
      window.shadow.draw(surface, dy);
      surface.image(window.body, code.window.x, code.window.y + dy);

      const scroll = Math.round(code.scrollTo * easeInOutCubic(progress(t, code.scrollStart, code.scrollEnd - code.scrollStart)));
      // The layer starts with a padding row, so the lines scroll up to the title bar, not to a gap below it.
      const visible = Math.min(lines.height - scroll, viewport.height - pad);
      if (visible > 0) surface.imageRegion(lines, 0, scroll, lines.width, visible, viewport.x, viewport.y + dy, lines.width, visible);
      // After the scroll lands, a bar in the gutter glows beside each changed line on screen.
      const glow = easeOutCubic(progress(t, code.scrollEnd, 500));
      if (glow > 0) {
        surface.alpha = opacity * glow;
        for (const { i, color } of changed) {
          const y = viewport.y + pad + dy + i * lineHeight - scroll;
          if (y < viewport.y || y + lineHeight > viewport.y + viewport.height - pad) continue;
          surface.fillRect(color, viewport.x, y, Math.max(3, Math.round(5 * u)), lineHeight);
        }
      }
      surface.alpha = 1;
      caption?.draw(surface, t, code.window.x + radius, code.window.y + code.window.height - radius, { enterAt: enterAt + 600, leaveAt }, alpha);
    },
    dispose() {},
  };
}

/** Shadow, body and title bar: three dots, the path, the status and the +/- counts. */
function windowLayer(code: CodePlan, theme: Theme, radius: number, u: number): { shadow: PanelShadow; body: Canvas } {
  const { window: rect, titleBarHeight, highlighted } = code;
  const shadow = new PanelShadow(rect, radius, { blur: 44 * u, color: theme.dark ? 'rgba(0, 0, 0, 0.6)' : 'rgba(15, 20, 30, 0.25)', offsetY: 16 * u });
  const bar = mix(highlighted.background, highlighted.foreground, 0.06);
  const body = layer(rect.width, rect.height, (ctx) => {
    roundedRect(ctx, { x: 0, y: 0, width: rect.width, height: rect.height }, radius);
    ctx.fillStyle = highlighted.background;
    ctx.fill();
    ctx.save();
    ctx.clip();
    ctx.fillStyle = bar;
    ctx.fillRect(0, 0, rect.width, titleBarHeight);
    ctx.restore();
    const mid = titleBarHeight / 2;
    ['#ff5f57', '#febc2e', '#28c840'].forEach((color, i) => {
      ctx.fillStyle = color;
      ctx.beginPath();
      ctx.arc(30 * u + i * 24 * u, mid, 7 * u, 0, Math.PI * 2);
      ctx.fill();
    });
    const size = 22 * u;
    ctx.textBaseline = 'middle';
    const { excerpt } = code;
    const counts = [`+${excerpt.additions}`, `−${excerpt.deletions}`] as const;
    const countsWidth = measure(counts.join('  '), size, theme.mono, 700);
    const statusText = excerpt.status ?? '';
    const statusWidth = statusText ? measure(statusText, size * 0.8, theme.sans, 700) + 24 * u : 0;
    ctx.font = font(size, theme.mono, 500);
    ctx.fillStyle = mix(highlighted.foreground, bar, 0.15);
    ctx.fillText(elide(excerpt.path, size, theme.mono, rect.width - 180 * u - countsWidth - statusWidth), 120 * u, mid);
    let x = rect.width - 24 * u - countsWidth;
    ctx.font = font(size, theme.mono, 700);
    ctx.fillStyle = ADDED;
    ctx.fillText(counts[0], x, mid);
    ctx.fillStyle = REMOVED;
    ctx.fillText(counts[1], x + measure(`${counts[0]}  `, size, theme.mono, 700), mid);
    if (statusText) {
      x -= statusWidth + 12 * u;
      ctx.fillStyle = withAlpha(theme.accent, 0.9);
      ctx.beginPath();
      ctx.roundRect(x, mid - size * 0.7, statusWidth, size * 1.4, size * 0.7);
      ctx.fill();
      ctx.font = font(size * 0.8, theme.sans, 700);
      ctx.fillStyle = readableOn(theme.accent);
      ctx.fillText(statusText, x + 12 * u, mid);
    }
  });
  return { shadow, body };
}

/** Keeps the end of a long path, where the file name is. */
function elide(path: string, size: number, family: string, room: number): string {
  let text = path;
  while (text.length > 4 && measure(text, size, family, 500) > room) text = `…${text.slice(2)}`;
  return text;
}

/** Every row that is ever on screen: diff backgrounds, gutter with numbers and markers, coloured tokens. */
function codeLayer(code: CodePlan, theme: Theme, pad: number): Canvas {
  const { rows, highlighted, viewport, lineHeight, fontSize, charWidth, gutterWidth } = code;
  return layer(viewport.width, pad + rows.length * lineHeight, (ctx) => {
    const gutterColor = mix(highlighted.foreground, highlighted.background, 0.55);
    ctx.textBaseline = 'middle';
    rows.forEach((row, i) => {
      const y = pad + i * lineHeight;
      const mid = y + lineHeight / 2;
      if (row.change !== 'context') {
        ctx.fillStyle = withAlpha(row.change === 'added' ? ADDED : REMOVED, theme.dark ? 0.2 : 0.14);
        ctx.fillRect(0, y, viewport.width, lineHeight);
      }
      ctx.font = font(fontSize, theme.mono, 400);
      ctx.fillStyle = row.change === 'context' ? gutterColor : row.change === 'added' ? ADDED : REMOVED;
      const number = row.number === null ? '' : String(row.number);
      const markerX = gutterWidth - 2 * charWidth;
      ctx.fillText(number, markerX - charWidth * (number.length + 1), mid);
      // The marker only on a line's first row, as in a diff view that wraps.
      if (row.change !== 'context' && row.number !== null) ctx.fillText(row.change === 'added' ? '+' : '−', markerX, mid);
      let x = gutterWidth + row.indent * charWidth;
      for (const token of row.tokens) {
        ctx.font = `${token.italic ? 'italic ' : ''}${font(fontSize, theme.mono, token.bold ? 700 : 400)}`;
        ctx.fillStyle = row.change === 'removed' ? mix(token.color, highlighted.background, 0.35) : token.color;
        ctx.fillText(token.text, x, mid);
        x += ctx.measureText(token.text).width;
        if (x > viewport.width) break;
      }
    });
  });
}

/** When the source was not sent: the file's digest in the window instead of its lines. */
function noteLayer(code: CodePlan, theme: Theme, u: number, pad: number): Canvas {
  const size = 30 * u;
  const { viewport, highlighted } = code;
  const lines = wrap(code.excerpt.note ?? '', size, theme.sans, 400, viewport.width - 80 * u);
  return layer(viewport.width, pad + Math.max(1, lines.length * size * 1.4), (ctx) => {
    ctx.font = font(size, theme.sans, 400);
    ctx.fillStyle = highlighted.foreground;
    ctx.textBaseline = 'top';
    lines.forEach((line, i) => ctx.fillText(line, 40 * u, pad + i * size * 1.4));
  });
}
