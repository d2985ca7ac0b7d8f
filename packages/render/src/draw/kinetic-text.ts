import { createCanvas, type Canvas } from '../canvas.ts';
import { easeInCubic, easeOutCubic, progress } from '../style/easing.ts';
import { font } from '../style/fonts.ts';
import type { Surface } from './display-list.ts';
import { measure, type FittedText } from './text.ts';

type Word = { text: string; canvas: Canvas; lit: Canvas | null; x: number; y: number };

export interface KineticTiming {
  /** Local time the first word starts to enter (may be negative, to enter with a transition). */
  enterAt: number;
  /** Local time the words start to leave. */
  leaveAt: number;
  enterMs?: number;
  leaveMs?: number;
}

/** When the key words light up: the first at `start`, then one every `everyMs`; `count` of them. */
export type Lighting = { start: number; everyMs: number; count: number };

export const LIGHT_MS = 220;
const ENTER_MS = 520;

/** How long after the first word starts to enter the last one is in, for a block of `words` words. */
export function enteredAfter(words: number, enterMs = ENTER_MS): number {
  return enterStagger(words) * Math.max(0, words - 1) + enterMs;
}

const enterStagger = (words: number) => Math.min(70, 600 / Math.max(1, words));

/**
 * A block of text whose words rise into place one after another, hold, then lift away. With
 * `litColor`, its key words can light up in that colour one after another (see `keyWords`).
 * Each word is drawn once into its own small layer (twice when it can light up); a frame only
 * moves and fades them.
 */
export class KineticText {
  readonly width: number;
  readonly height: number;
  private readonly words: Word[] = [];

  constructor(readonly text: FittedText, color: string, align: 'left' | 'center' = 'left', litColor: string | null = null) {
    const { size, lines, lineHeight, family, weight } = text;
    const space = measure(' ', size, family, weight);
    const widths = lines.map((line) => measure(line, size, family, weight));
    this.width = Math.ceil(Math.max(0, ...widths));
    this.height = lineHeight * lines.length;
    const pad = Math.ceil(size * 0.25);
    const draw = (word: string, width: number, fill: string) => {
      const canvas = createCanvas(Math.ceil(width) + 2 * pad, Math.ceil(lineHeight + 2 * pad));
      const ctx = canvas.getContext('2d');
      ctx.font = font(size, family, weight);
      ctx.fillStyle = fill;
      ctx.textBaseline = 'alphabetic';
      ctx.fillText(word, pad, pad + Math.round(lineHeight * 0.5 + size * 0.36));
      return canvas;
    };
    const all = lines.flatMap((line) => line.split(' ').filter(Boolean));
    const key = new Set(litColor ? keyWords(all) : []);
    let index = 0;
    lines.forEach((line, row) => {
      let x = align === 'center' ? (this.width - (widths[row] ?? 0)) / 2 : 0;
      for (const word of line.split(' ').filter(Boolean)) {
        const width = measure(word, size, family, weight);
        const lit = litColor && key.has(index) ? draw(word, width, litColor) : null;
        this.words.push({ text: word, canvas: draw(word, width, color), lit, x: x - pad, y: row * lineHeight - pad });
        x += width + space;
        index++;
      }
    });
  }

  /** Draws the block with its top left at (x, y); `lighting` lights its key words up in turn. */
  draw(surface: Surface, t: number, x: number, y: number, timing: KineticTiming, alpha = 1, lighting: Lighting | null = null): void {
    const enterMs = timing.enterMs ?? ENTER_MS;
    const leaveMs = timing.leaveMs ?? 320;
    const count = this.words.length;
    const stagger = enterStagger(count);
    const leaveStagger = Math.min(25, 200 / Math.max(1, count));
    const rise = this.text.size * 0.5;
    let litIndex = 0;
    this.words.forEach((word, i) => {
      const enter = easeOutCubic(progress(t, timing.enterAt + i * stagger, enterMs));
      const leave = easeInCubic(progress(t, timing.leaveAt + i * leaveStagger, leaveMs));
      const opacity = alpha * enter * (1 - leave);
      const lit = word.lit && lighting ? progress(t, lighting.start + litIndex++ * lighting.everyMs, LIGHT_MS) : 0;
      if (opacity <= 0.003) return;
      const top = y + word.y + (1 - enter) * rise - leave * rise * 0.6;
      if (lit < 1) {
        surface.alpha = opacity;
        surface.image(word.canvas, x + word.x, top);
      }
      if (lit > 0 && word.lit) {
        surface.alpha = opacity * lit;
        surface.image(word.lit, x + word.x, top);
      }
    });
    surface.alpha = 1;
  }
}

const SMALL = new Set('about after also and are back been before but can does each even every for from had has have here into its just like more most much next not now off one only our out over same some than that the their them then there these they this those through too very was were what when where which while who why will with would you your'.split(' '));

/** The words that carry a statement: those of four letters or more that are not small words, and any with a digit; all of them when none do. */
export function keyWords(words: string[]): number[] {
  const key = words.flatMap((word, i) => {
    const bare = word.toLocaleLowerCase('en').replace(/[^\p{L}\p{N}]/gu, '');
    return /\p{N}/u.test(bare) || (bare.length >= 4 && !SMALL.has(bare)) ? [i] : [];
  });
  return key.length ? key : words.map((_, i) => i);
}
