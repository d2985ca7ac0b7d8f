import type { CodePlan } from '../../plan/code-plan.ts';
import type { ScenePlan } from '../../plan/plan.ts';
import { characters } from '../../style/characters.ts';
import { withAlpha } from '../../style/color.ts';
import { easeInCubic, easeInOutCubic, easeOutCubic, progress } from '../../style/easing.ts';
import { cardRadius } from '../../layout/arrange.ts';
import { Caption } from '../caption.ts';
import { drawAsRecording, type Surface } from '../display-list.ts';
import { KineticText } from '../kinetic-text.ts';
import type { Layout } from '../layout.ts';
import type { Painter } from '../painter.ts';
import { measure } from '../text.ts';
import type { Theme } from '../theme.ts';
import { accentMark } from './accent-mark.ts';
import { codeColours, codeLayer, noteLayer, windowLayer, type CodeColours } from './code-look.ts';

/** How long each changed row stays lit as the highlight sweeps down them, over and over. */
const SWEEP_MS = 420;
/** The caret stays this long after the line is typed. */
const CARET_STAYS_MS = 450;

/**
 * An editor window: title bar with the file and its +/- counts, line numbers, syntax
 * colours, added and removed lines marked; it scrolls to the first change, the changed line
 * types itself in, then a highlight sweeps down the changed lines, over and over, until the
 * scene leaves. Window and code are drawn once; a frame copies the window and replays the
 * lines in view.
 */
export function codePainter(plan: ScenePlan, layout: Layout, theme: Theme): Painter {
  const code = plan.code as CodePlan;
  const u = layout.unit;
  const radius = cardRadius(layout, 'code');
  const heading = plan.heading ? new KineticText(plan.heading, theme.text) : null;
  const caption = plan.sub ? new Caption(plan.sub, layout, theme) : null;
  const colours = codeColours(code, theme);
  const window = windowLayer(code, theme, colours, radius, u);
  const pad = code.padding;
  // The code's layer can be thousands of pixels tall: see `drawAsRecording`.
  const lines = drawAsRecording(code.rows.length ? codeLayer(code, colours, pad) : noteLayer(code, colours, theme, u, pad));
  const typing = code.typed ? typingOf(code, colours, pad) : null;
  const { viewport, lineHeight } = code;
  const { enterAt, leaveAt, regions } = plan;
  const changed = code.rows.flatMap((row, i) => (row.change === 'context' ? [] : [{ i, color: row.change === 'added' ? colours.addedBar : colours.removedBar }]));
  const band = withAlpha(theme.accent, colours.sweepAlpha);
  // Without lines, the band sweeps down the note's.
  const sweep = code.rows.length || !code.note ? { rows: code.sweepRows, height: lineHeight } : { rows: code.note.lines.map((_, i) => i), height: code.note.lineHeight };
  const rowTop = (i: number, scroll: number, dy: number) => viewport.y + pad + dy + i * lineHeight - scroll;
  const onScreen = (y: number) => y >= viewport.y && y + lineHeight <= viewport.y + viewport.height - pad;

  return {
    draw(surface: Surface, t: number, alpha: number) {
      if (heading && regions.heading) heading.draw(surface, t, regions.heading.x, regions.heading.y, { enterAt, leaveAt }, alpha);
      if (regions.mark) accentMark(surface, theme, regions.mark, t, { enterAt, leaveAt }, alpha);
      const enter = easeOutCubic(progress(t, enterAt + 100, 650));
      const leave = easeInCubic(progress(t, leaveAt + 100, 400));
      const opacity = alpha * enter * (1 - leave);
      if (opacity <= 0.003) return;
      const dy = Math.round((1 - enter) * 60 * u);
      surface.alpha = opacity;
      window.shadow.draw(surface, dy);
      surface.image(window.body, code.window.x, code.window.y + dy);

      const scroll = Math.round(code.scrollTo * easeInOutCubic(progress(t, code.scrollStart, code.scrollEnd - code.scrollStart)));
      // The typed line glows as it types itself in; then a soft band of the accent sweeps down
      // the changed rows, over and over, under the code.
      if (code.typed && t >= code.typed.start && t < code.typedEnd + 150) {
        surface.alpha = opacity * Math.sin(Math.PI * progress(t, code.typed.start, code.typedEnd + 150 - code.typed.start));
        for (const i of code.typed.rows) {
          const y = rowTop(i, scroll, dy);
          if (onScreen(y)) surface.fillRect(band, viewport.x, y, viewport.width, lineHeight);
        }
        surface.alpha = opacity;
      }
      const sweeping = t - code.typedEnd - 150;
      if (sweeping > 0 && sweep.rows.length) {
        const step = Math.floor(sweeping / SWEEP_MS);
        const y = viewport.y + pad + dy + sweep.rows[step % sweep.rows.length]! * sweep.height - scroll;
        const glow = Math.sin(Math.PI * ((sweeping % SWEEP_MS) / SWEEP_MS));
        surface.alpha = opacity * glow;
        if (y >= viewport.y && y + sweep.height <= viewport.y + viewport.height) surface.fillRect(band, viewport.x, y, viewport.width, sweep.height);
        surface.alpha = opacity;
      }
      // The layer starts with a padding row, so the lines scroll up to the title bar, not to a gap below it.
      const visible = Math.min(lines.height - scroll, viewport.height - pad);
      if (visible > 0) surface.imageRegion(lines, 0, scroll, lines.width, visible, viewport.x, viewport.y + dy, lines.width, visible);
      typing?.draw(surface, t, scroll, dy, opacity);
      // After the scroll lands, a bar in the gutter glows beside each changed line on screen.
      const glow = easeOutCubic(progress(t, code.scrollEnd, 500));
      if (glow > 0) {
        surface.alpha = opacity * glow;
        for (const { i, color } of changed) {
          const y = rowTop(i, scroll, dy);
          if (onScreen(y)) surface.fillRect(color, viewport.x, y, Math.max(3, Math.round(5 * u)), lineHeight);
        }
      }
      surface.alpha = 1;
      if (caption && regions.caption) {
        const { x, y, height } = regions.caption;
        caption.draw(surface, t, x, y + height, { enterAt: enterAt + 600, leaveAt }, alpha);
      }
    },
    dispose() {},
  };
}

/**
 * The typed line: until its time, what is not typed yet is hidden under a patch of its row's
 * own colour, which shrinks character by character behind a caret in the accent colour.
 */
function typingOf(code: CodePlan, colours: CodeColours, pad: number): { draw(surface: Surface, t: number, scroll: number, dy: number, opacity: number): void } {
  const typed = code.typed!;
  const { viewport, lineHeight, gutterWidth, charWidth, fontSize } = code;
  const rows = typed.rows.map((i) => {
    const row = code.rows[i]!;
    const text = characters(row.tokens.map((token) => token.text).join(''));
    const x0 = viewport.x + gutterWidth + row.indent * charWidth;
    // Where each character ends, as the layer drew them.
    const ends = text.map((_, k) => x0 + measure(text.slice(0, k + 1).join(''), fontSize, colours.mono, 400));
    return { i, x0, ends };
  });
  const total = rows.reduce((sum, row) => sum + row.ends.length, 0);
  const caretWidth = Math.max(2, Math.round(fontSize * 0.12));
  return {
    draw(surface, t, scroll, dy, opacity) {
      if (t >= typed.end + CARET_STAYS_MS) return;
      let left = Math.floor(total * progress(t, typed.start, typed.end - typed.start));
      let caret = false;
      surface.alpha = opacity;
      for (const row of rows) {
        const y = viewport.y + pad + dy + row.i * lineHeight - scroll;
        const count = Math.min(row.ends.length, left);
        left -= count;
        const from = count ? row.ends[count - 1]! : row.x0;
        if (count < row.ends.length) surface.fillRect(colours.addedRow, Math.floor(from), y, Math.ceil(viewport.x + viewport.width - from), lineHeight);
        // The caret follows the last character typed, on the first row not typed whole (the last row once all is typed).
        if (!caret && (count < row.ends.length || row === rows.at(-1))) {
          surface.fillRect(colours.caret, Math.round(from + 1), Math.round(y + lineHeight * 0.18), caretWidth, Math.round(lineHeight * 0.64));
          caret = true;
        }
      }
      surface.alpha = 1;
    },
  };
}
