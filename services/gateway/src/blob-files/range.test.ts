import { describe, expect, it } from 'vitest';
import { parseRange } from './range.ts';

describe('parseRange', () => {
  it.each([
    ['bytes=0-99', { start: 0, end: 99 }],
    ['bytes=100-', { start: 100, end: 999 }],
    ['bytes=-100', { start: 900, end: 999 }],
    ['bytes=-5000', { start: 0, end: 999 }],
    ['bytes=990-5000', { start: 990, end: 999 }],
    ['bytes=999-999', { start: 999, end: 999 }],
    ['BYTES = 1 - 2', { start: 1, end: 2 }],
  ])('serves %s', (header, range) => expect(parseRange(header, 1000)).toEqual(range));

  it.each(['bytes=1000-', 'bytes=5000-6000', 'bytes=-0'])('refuses %s as unsatisfiable', (header) => expect(parseRange(header, 1000)).toBe('unsatisfiable'));

  it.each(['items=0-5', 'bytes=0-1,5-6', 'bytes=5-1', 'bytes=-', 'bytes=a-b', ''])('ignores %s (the whole file is sent)', (header) =>
    expect(parseRange(header, 1000)).toBeNull());

  it('has nothing to serve from an empty file', () => expect(parseRange('bytes=0-', 0)).toBe('unsatisfiable'));
});
