import type { Pitch } from '@vp/contracts';
import { describe, expect, it } from 'vitest';
import { brief, codeFile, image } from './testing/briefs.ts';
import { checkPitch, validatePitchFor } from './validate.ts';

const b = brief({ media: [image('hero', 'Hero')], code: [codeFile('src/a.ts')], format: { durationMs: 5000, sound: { voiceover: false, music: false } } });
const shot = { index: 0, title: 'Only', durationMs: 5000, beat: null, visual: 'A card.', text: null, voiceover: null, mediaIds: ['hero'], codePaths: ['src/a.ts'] };
const valid: Pitch = { version: 1, verdict: 'video', verdictReason: null, title: 'T', summary: 'S', shots: [shot], music: null, estimatedCredits: 5, createdAt: '2026-01-01T00:00:00.000Z' };

describe('validatePitchFor', () => {
  it('accepts a pitch that fits its brief', () => {
    expect(validatePitchFor(b, valid)).toEqual([]);
  });

  it('names every rule the schema cannot express that a pitch breaks', () => {
    const problems = validatePitchFor(b, {
      ...valid, verdict: 'skip', music: 'Jazz', estimatedCredits: 1,
      shots: [{ ...shot, index: 3, durationMs: 4000, voiceover: 'Hello', mediaIds: ['ghost'], codePaths: ['src/ghost.ts'] }],
    });
    expect(problems).toEqual([
      "the shots' durationMs add up to 4000 ms; they must add up to exactly 5000 ms",
      'shots[0].index is 3; shots are numbered 0 to 0 in order',
      'shots[0].mediaIds names "ghost", which is not a media id of the brief',
      'shots[0].codePaths names "src/ghost.ts", which is not a code path of the brief',
      'shots[0].voiceover must be null: voiceover is off for this brief',
      'music must be null: music is off for this brief',
      'estimatedCredits is 1; a 5000 ms video costs 5',
      'a skip verdict needs a verdictReason saying why',
    ]);
  });
});

describe('a voiceover line', () => {
  const spoken = brief({ format: { durationMs: 6000 } });
  const shots = (...lines: Array<[durationMs: number, voiceover: string | null]>) => lines.map(([durationMs, voiceover], index) => ({ ...shot, index, durationMs, voiceover, mediaIds: [], codePaths: [] }));
  const pitch = (list: Pitch['shots']): Pitch => ({ ...valid, shots: list, estimatedCredits: 6 });

  it('fits in the time from its shot\'s start until the next line, about three words a second', () => {
    // 2 s: 7 words; 1 s: 4.
    expect(validatePitchFor(spoken, pitch(shots([2000, 'One two three four five six seven.'], [1000, 'One two three four.'], [3000, null])))).toEqual([]);
    expect(validatePitchFor(spoken, pitch(shots([2000, 'One two three four five six seven eight.'], [1000, 'Release two point four is here.'], [3000, null])))).toEqual([
      "shots[0].voiceover has 8 words, but the 2 s from its shot's start until the next line fit about 7 (three words a second): shorten the line or lengthen its shot",
    ]);
  });

  it('may run on over the quiet shots after it, until the video ends', () => {
    const long = 'Release two point four brings faster and safer fetching for everyone, with retries and timeouts.';
    expect(validatePitchFor(spoken, pitch(shots([1000, 'Hello.'], [1000, long], [4000, null])))).toEqual([]);
    expect(validatePitchFor(spoken, pitch(shots([1000, 'Hello.'], [4000, null], [1000, long])))).toEqual([
      "shots[2].voiceover has 15 words, but the 1 s from its shot's start until the video ends fit about 4 (three words a second): shorten the line or lengthen its shot",
    ]);
  });
});

describe('checkPitch', () => {
  it('reports schema problems with their place in the pitch', () => {
    const result = checkPitch(b, { ...valid, title: '', shots: [{ ...shot, durationMs: 100 }] });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.problems.some((p) => p.startsWith('title:'))).toBe(true);
      expect(result.problems.some((p) => p.startsWith('shots[0].durationMs:'))).toBe(true);
    }
  });
});
