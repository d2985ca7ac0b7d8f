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
  // No text of `max` UTF-16 units has more than `max` characters: most lines need no segmenting.
  if (text.length <= max) return text;
  // Segmenting only the start: a line of one long cluster (a letter under thousands of combining
  // marks) takes the segmenter quadratic time.
  const window = text.slice(0, max * 8);
  const start = characters(window);
  if (window.length === text.length && start.length <= max) return text;
  // The window's last cluster may go on past it: only whole ones are kept.
  if (window.length < text.length) start.pop();
  return `${start.slice(0, max - 1).join('')}…`;
}
