import { characters } from '../style/characters.ts';
import { fitText, measure, type FittedText, type Weight } from '../draw/text.ts';

/** Every size text is set in, in pixels at 1080 on the frame's short side, largest first. */
export const TYPE_SCALE = [160, 136, 120, 104, 92, 84, 76, 68, 60, 54, 48, 44, 40, 36, 32, 30, 28, 26, 24, 22] as const;

/** A place for words on a frame: its width and lines, and the steps of the type scale it may use. */
export interface TextBox {
  family: string;
  weight: Weight;
  /** The steps of the type scale allowed, in pixels at this frame, largest first. */
  sizes: number[];
  maxWidth: number;
  maxLines: number;
  /** Line height as a multiple of the size. */
  leading: number;
  /** Set in capitals (a label). */
  uppercase?: boolean;
}

/** The steps of the type scale from `largest` down to `smallest` (at 1080), at a frame's `unit`. */
export function scaleSteps(largest: number, smallest: number, unit: number): number[] {
  return TYPE_SCALE.filter((size) => size <= largest && size >= smallest).map((size) => Math.round(size * unit));
}

/** A text laid out in its box; `fits` is false only when no step of the scale holds it whole. */
export type BoxedText = FittedText & { fits: boolean };

/**
 * The text at the largest step of its box's scale where it takes at most the box's lines with
 * every word whole. Writers write to this (see `fitsBox`); a text that no step holds, which
 * only a person's edit can bring, is set at the smallest step and, as a last resort, cut.
 */
export function fitInBox(raw: string, box: TextBox): BoxedText {
  const text = box.uppercase ? raw.toLocaleUpperCase('en') : raw;
  const whole = wholeAt(text, box);
  if (whole) return whole;
  const smallest = box.sizes.at(-1) ?? 24;
  const fallback = fitText(text, { family: box.family, weight: box.weight, maxSize: smallest, minSize: smallest, maxWidth: box.maxWidth, maxLines: box.maxLines, leading: box.leading });
  return { ...fallback, fits: false };
}

/** Whether the whole text fits its box at some step of the scale. */
export function fitsBox(raw: string, box: TextBox): boolean {
  return wholeAt(box.uppercase ? raw.toLocaleUpperCase('en') : raw, box) !== null;
}

/** The text whole at the largest step that holds it, or null. */
function wholeAt(text: string, box: TextBox): BoxedText | null {
  for (const size of box.sizes) {
    const lines = wrapWhole(text, size, box);
    if (lines) return { size, lines, lineHeight: Math.round(size * box.leading), family: box.family, weight: box.weight, fits: true };
  }
  return null;
}

/**
 * Whether the text fits at one of the larger steps of its box: the upper half of the scale
 * it may use. Writers prefer a shorter phrasing that fits so to a longer one set small.
 */
export function fitsComfortably(text: string, box: TextBox): boolean {
  const upper = box.sizes.slice(0, Math.max(1, Math.ceil(box.sizes.length / 2)));
  return fitsBox(text, { ...box, sizes: upper });
}

/**
 * Greedy word wrap at `size`, or null when the text takes more than the box's lines or a word
 * is wider than a line (the renderer would have to cut it).
 */
function wrapWhole(text: string, size: number, box: TextBox): string[] | null {
  const lines: string[] = [];
  const fits = (line: string) => measure(line, size, box.family, box.weight) <= box.maxWidth;
  for (const paragraph of text.split(/\n+/)) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (fits(candidate)) {
        line = candidate;
        continue;
      }
      if (!line || !fits(word)) return null;
      lines.push(line);
      if (lines.length >= box.maxLines) return null;
      line = word;
    }
    if (line) lines.push(line);
    if (lines.length > box.maxLines) return null;
  }
  return lines.length && characters(lines.join('')).length ? lines : null;
}
