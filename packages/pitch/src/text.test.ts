import { describe, expect, it } from 'vitest';
import { articleForNumber, clip, codePointLength, humanizePath, oneLine, speakable } from './text.ts';

describe('clip', () => {
  it('leaves text within the bound alone', () => {
    expect(clip('Invoice export', 14)).toBe('Invoice export');
  });

  it('counts characters as code points, like the schema', () => {
    expect(codePointLength('😀😀')).toBe(2);
    expect(clip('😀😀', 2)).toBe('😀😀');
  });

  it('cuts at a word boundary and says so with an ellipsis', () => {
    expect(clip('Invoices now export to CSV in one click', 20)).toBe('Invoices now export…');
  });

  it('never splits a surrogate pair or an emoji sequence', () => {
    const family = '👨‍👩‍👧';
    for (let max = 1; max <= 12; max++) {
      const cut = clip(family.repeat(4), max);
      expect(codePointLength(cut)).toBeLessThanOrEqual(max);
      expect(cut).not.toMatch(/\p{Cs}/u);
      expect(cut.replace(/…$/, '').replaceAll(family, '')).toBe('');
    }
  });

  it('keeps flags and combining accents whole', () => {
    expect(clip('🇫🇷🇫🇷🇫🇷', 4)).toBe('🇫🇷…');
    expect(clip('e\u0301e\u0301e\u0301', 4)).toBe('e\u0301…');
  });
});

describe('oneLine', () => {
  it('collapses whitespace, drops control characters and replaces lone surrogates', () => {
    expect(oneLine(' a\n\tb\u0007 \ud83d ')).toBe('a b \uFFFD');
  });
});

describe('speakable', () => {
  it('keeps whole sentences that fit the time', () => {
    expect(speakable('Exports are here. They are fast. And more.', 6)).toBe('Exports are here. They are fast.');
  });

  it('ends a long sentence on a clause, or says nothing rather than trail off with an ellipsis of its own', () => {
    expect(speakable('Invoices export to CSV, with totals and taxes per line', 7)).toBe('Invoices export to CSV.');
    expect(speakable('Invoices export to CSV in one single click', 5)).toBe('');
  });

  it('counts words as the pitch check does: "2.4" is two', () => {
    expect(speakable('Release 2.4 brings faster exports, today', 6)).toBe('Release 2.4 brings faster exports.');
    expect(speakable('Release 2.4 brings faster exports today', 5)).toBe('');
    expect(speakable('v2.4.1-beta.3 is out', 4)).toBe('');
  });
});

describe('humanizePath', () => {
  it.each([
    ['src/billing/InvoiceExport.ts', 'Invoice export'],
    ['src/cache/index.ts', 'Cache'],
    ['src/tax/round.ts', 'Tax round'],
    ['packages/render/src/plan/plan.ts', 'Plan'],
    ['src/Auth/auth.go', 'Auth'],
    ['lib/user_avatar.component.tsx', 'User avatar'],
    ['README', 'Readme'],
  ])('%s reads "%s"', (path, name) => {
    expect(humanizePath(path)).toBe(name);
  });
});

describe('articleForNumber', () => {
  it('says "an" where the number is spoken with a vowel first', () => {
    expect([8, 8.5, 11, 11.2, 18, 80, 86.4].map(articleForNumber)).toEqual(Array(7).fill('An'));
    expect([5, 10, 12.5, 28, 100, 110, 118, 120].map(articleForNumber)).toEqual(Array(8).fill('A'));
  });
});
