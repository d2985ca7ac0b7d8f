import { createCanvas, type SKRSContext2D } from '../canvas.ts';
import { characters } from '../style/characters.ts';
import { font } from '../style/fonts.ts';

export type Weight = 400 | 500 | 600 | 700 | 800;

export interface TextStyle {
  family: string;
  weight: Weight;
  maxSize: number;
  minSize: number;
  maxWidth: number;
  maxLines: number;
  /** Line height as a multiple of the size. */
  leading?: number;
}

/** A text broken into lines at the largest size (down to `minSize`) that fits. */
export interface FittedText {
  size: number;
  lines: string[];
  lineHeight: number;
  family: string;
  weight: Weight;
}

let measurer: SKRSContext2D | null = null;
function measureContext(): SKRSContext2D {
  measurer ??= createCanvas(1, 1).getContext('2d');
  return measurer;
}

export function measure(text: string, size: number, family: string, weight: Weight): number {
  const ctx = measureContext();
  ctx.font = font(size, family, weight);
  return ctx.measureText(text).width;
}

/** Greedy word wrap; a word wider than the line is cut between characters. */
export function wrap(text: string, size: number, family: string, weight: Weight, maxWidth: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\n+/)) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (measure(candidate, size, family, weight) <= maxWidth) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      let rest = characters(word);
      while (measure(rest.join(''), size, family, weight) > maxWidth && rest.length > 1) {
        let cut = rest.length - 1;
        while (cut > 1 && measure(rest.slice(0, cut).join(''), size, family, weight) > maxWidth) cut--;
        lines.push(rest.slice(0, cut).join(''));
        rest = rest.slice(cut);
      }
      line = rest.join('');
    }
    if (line) lines.push(line);
  }
  return lines;
}

/** Shrinks the size in 6% steps until the text fits `maxLines`; at the minimum, the last line gets an ellipsis. */
export function fitText(text: string, style: TextStyle): FittedText {
  const leading = style.leading ?? 1.18;
  let size = style.maxSize;
  for (;;) {
    const lines = wrap(text, size, style.family, style.weight, style.maxWidth);
    if (lines.length <= style.maxLines || size <= style.minSize) {
      return { size, lines: truncate(lines, style, size), lineHeight: Math.round(size * leading), family: style.family, weight: style.weight };
    }
    size = Math.max(style.minSize, Math.floor(size * 0.94));
  }
}

function truncate(lines: string[], style: TextStyle, size: number): string[] {
  if (lines.length <= style.maxLines) return lines;
  const kept = lines.slice(0, style.maxLines);
  const shown = characters(kept.at(-1) ?? '');
  while (shown.length && measure(`${shown.join('')}…`, size, style.family, style.weight) > style.maxWidth) shown.pop();
  kept[kept.length - 1] = `${shown.join('')}…`;
  return kept;
}
