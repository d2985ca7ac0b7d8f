import { describe, expect, it } from 'vitest';
import { sansStack } from '../style/fonts.ts';
import { LONE_SURROGATE } from '../testing/fixtures.ts';
import { fitText, wrap } from './text.ts';

const FAMILY = sansStack(null);

describe('wrap', () => {
  it('cuts a word wider than the line between characters, never inside an emoji', () => {
    const word = '🚀✨🐛🎉'.repeat(6);
    for (let maxWidth = 60; maxWidth <= 300; maxWidth += 10) {
      const lines = wrap(word, 40, FAMILY, 700, maxWidth);
      expect(lines.length).toBeGreaterThan(1);
      expect(lines.join('')).toBe(word);
      for (const line of lines) expect(line).not.toMatch(LONE_SURROGATE);
    }
  });
});

describe('fitText', () => {
  it('ends a text that does not fit with an ellipsis after a whole character', () => {
    for (let maxWidth = 200; maxWidth <= 500; maxWidth += 10) {
      const fitted = fitText('Ship it 🚀🚀 🚀🚀 🚀🚀 🚀🚀 🚀🚀 🚀🚀 🚀🚀 🚀🚀 today', {
        family: FAMILY, weight: 700, maxSize: 40, minSize: 40, maxWidth, maxLines: 1,
      });
      expect(fitted.lines).toHaveLength(1);
      expect(fitted.lines[0]).toMatch(/…$/);
      expect(fitted.lines[0]).not.toMatch(LONE_SURROGATE);
    }
  });
});
