const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * The characters of a text as a reader sees them (grapheme clusters): where text is cut, an
 * emoji, a flag or a letter with its accent is never split into halves that draw as boxes.
 */
export function characters(text: string): string[] {
  return Array.from(graphemes.segment(text), ({ segment }) => segment);
}

/** The text cut to at most `max` characters, the last one an ellipsis when it was cut. */
export function shorten(text: string, max: number): string {
  const all = characters(text);
  return all.length > max ? `${all.slice(0, max - 1).join('')}…` : text;
}
