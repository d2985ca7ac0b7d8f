import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shotCountRange, splitDuration } from './timing.ts';

describe('shot timing', () => {
  it('plans shots of about two seconds or more, and enough of them to stay under a minute each', () => {
    expect(shotCountRange(5000)).toEqual({ min: 1, max: 2 });
    expect(shotCountRange(15_000)).toEqual({ min: 1, max: 7 });
    expect(shotCountRange(60_001)).toEqual({ min: 2, max: 24 });
    expect(shotCountRange(120_000)).toEqual({ min: 2, max: 24 });
  });

  it('gives every shot a readable 1.5 s, then the rest in proportion to the weights, on tenths of a second', () => {
    expect(splitDuration(10_000, [1, 1, 2])).toEqual([2900, 2900, 4200]);
    expect(splitDuration(10_000, [1, 1])).toEqual([5000, 5000]);
  });

  it('gives the odd milliseconds to one shot', () => {
    expect(splitDuration(7777, [1, 1]).reduce((a, b) => a + b)).toBe(7777);
  });

  it('always adds up exactly, each shot between 0.5 s and 60 s', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 5000, max: 120_000 }).chain((total) => {
          const { min, max } = shotCountRange(total);
          return fc.tuple(fc.constant(total), fc.array(fc.double({ min: 0, max: 100, noNaN: true }), { minLength: min, maxLength: max }));
        }),
        ([total, weights]) => {
          const durations = splitDuration(total, weights);
          expect(durations.reduce((a, b) => a + b, 0)).toBe(total);
          for (const d of durations) {
            expect(Number.isInteger(d)).toBe(true);
            expect(d).toBeGreaterThanOrEqual(500);
            expect(d).toBeLessThanOrEqual(60_000);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses a split no shot list could hold', () => {
    expect(() => splitDuration(120_000, [1])).toThrow(RangeError);
  });
});
