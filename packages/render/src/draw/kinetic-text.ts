import { createCanvas, type Canvas } from '../canvas.ts';
import { easeInCubic, easeOutCubic, progress } from '../style/easing.ts';
import { font } from '../style/fonts.ts';
import type { Surface } from './display-list.ts';
import { measure, type FittedText } from './text.ts';

type Word = { canvas: Canvas; x: number; y: number };

export interface KineticTiming {
  /** Local time the first word starts to enter (may be negative, to enter with a transition). */
  enterAt: number;
  /** Local time the words start to leave. */
  leaveAt: number;
  enterMs?: number;
  leaveMs?: number;
}

/**
 * A block of text whose words rise into place one after another, hold, then lift away.
 * Each word is drawn once into its own small layer; a frame only moves and fades them.
 */
export class KineticText {
  readonly width: number;
  readonly height: number;
  private readonly words: Word[] = [];

  constructor(readonly text: FittedText, color: string, align: 'left' | 'center' = 'left') {
    const { size, lines, lineHeight, family, weight } = text;
    const space = measure(' ', size, family, weight);
    const widths = lines.map((line) => measure(line, size, family, weight));
    this.width = Math.ceil(Math.max(0, ...widths));
    this.height = lineHeight * lines.length;
    const pad = Math.ceil(size * 0.25);
    lines.forEach((line, row) => {
      let x = align === 'center' ? (this.width - (widths[row] ?? 0)) / 2 : 0;
      for (const word of line.split(' ').filter(Boolean)) {
        const width = measure(word, size, family, weight);
        const canvas = createCanvas(Math.ceil(width) + 2 * pad, Math.ceil(lineHeight + 2 * pad));
        const ctx = canvas.getContext('2d');
        ctx.font = font(size, family, weight);
        ctx.fillStyle = color;
        ctx.textBaseline = 'alphabetic';
        ctx.fillText(word, pad, pad + Math.round(lineHeight * 0.5 + size * 0.36));
        this.words.push({ canvas, x: x - pad, y: row * lineHeight - pad });
        x += width + space;
      }
    });
  }

  /** Draws the block with its top left at (x, y). */
  draw(surface: Surface, t: number, x: number, y: number, timing: KineticTiming, alpha = 1): void {
    const enterMs = timing.enterMs ?? 520;
    const leaveMs = timing.leaveMs ?? 320;
    const count = this.words.length;
    const enterStagger = Math.min(70, 600 / Math.max(1, count));
    const leaveStagger = Math.min(25, 200 / Math.max(1, count));
    const rise = this.text.size * 0.5;
    this.words.forEach((word, i) => {
      const enter = easeOutCubic(progress(t, timing.enterAt + i * enterStagger, enterMs));
      const leave = easeInCubic(progress(t, timing.leaveAt + i * leaveStagger, leaveMs));
      const opacity = alpha * enter * (1 - leave);
      if (opacity <= 0.003) return;
      surface.alpha = opacity;
      surface.image(word.canvas, x + word.x, y + word.y + (1 - enter) * rise - leave * rise * 0.6);
    });
    surface.alpha = 1;
  }
}
