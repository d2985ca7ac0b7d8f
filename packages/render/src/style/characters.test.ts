import { describe, expect, it } from 'vitest';
import { LONE_SURROGATE } from '../testing/fixtures.ts';
import { characters, shorten } from './characters.ts';

describe('characters', () => {
  it('keeps emoji, flags, families and accented letters whole', () => {
    expect(characters('a🚀🇫🇷👩‍👩‍👧é')).toEqual(['a', '🚀', '🇫🇷', '👩‍👩‍👧', 'é']);
  });

  it('shortens a line between characters, never inside an emoji', () => {
    const line = `${'x'.repeat(238)}🚀🚀🚀`;
    expect(shorten(line, 240)).toBe(`${'x'.repeat(238)}🚀…`);
    expect(shorten(line, 240)).not.toMatch(LONE_SURROGATE);
    expect(shorten('short 🚀', 240)).toBe('short 🚀');
  });
});
