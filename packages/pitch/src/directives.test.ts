import { describe, expect, it } from 'vitest';
import { foldDirectives, readComment } from './directives.ts';

describe('reading a comment', () => {
  it.each([
    ['Make it shorter', [{ kind: 'fewer' }]],
    ['Drop the intro', [{ kind: 'intro', keep: false }]],
    ['no outro please', [{ kind: 'outro', keep: false }]],
    ['More playful!', [{ kind: 'tone', tone: 'playful' }]],
    ['This is too casual', [{ kind: 'tone', tone: 'formal' }]],
    ['No voiceover text', [{ kind: 'voiceover', keep: false }]],
    ['Remove the music', [{ kind: 'music', keep: false }]],
    ['without on-screen text', [{ kind: 'text', keep: false }]],
    ['Please mention the new dark mode and nothing else', [{ kind: 'focus', term: 'new dark mode' }]],
    ['Call it "Billing, reborn"', [{ kind: 'title', title: 'Billing, reborn' }]],
    ["Don't drop the intro", []],
    ['I love the colours', []],
  ])('"%s"', (comment, directives) => {
    expect(readComment(comment)).toEqual(directives);
  });

  it('reads several requests in one comment', () => {
    expect(readComment('Drop the intro. Also more formal; focus on exports').map((d) => d.kind)).toEqual(['intro', 'tone', 'focus']);
  });
});

describe('the comment history', () => {
  it('keeps earlier requests and lets later ones override them', () => {
    const d = foldDirectives([{ comment: 'drop the intro, more playful' }, { comment: 'shorter' }, { comment: 'more formal' }, { comment: 'shorter still' }]);
    expect(d).toMatchObject({ intro: false, tone: 'formal', fewer: 2 });
  });
});
