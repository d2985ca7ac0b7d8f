import { Brief, creditsFor, Pitch } from '@vp/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anyBrief, anyComments, noiseOnlyBrief } from '../testing/arbitraries.ts';
import { validatePitchFor } from '../validate.ts';
import type { PitchComment } from '../writer.ts';
import { createBuiltinWriter } from './writer.ts';

const writer = createBuiltinWriter();

/** Every rule a stored pitch must follow, spelled out one by one. */
function expectValidPitch(brief: Brief, pitch: Pitch, version: number) {
  expect(Pitch.parse(pitch)).toEqual(pitch);
  expect(pitch.version).toBe(version);
  expect(pitch.shots.length).toBeGreaterThanOrEqual(1);
  expect(pitch.shots.length).toBeLessThanOrEqual(24);
  expect(pitch.shots.reduce((sum, shot) => sum + shot.durationMs, 0)).toBe(brief.format.durationMs);
  expect(pitch.shots.map((shot) => shot.index)).toEqual(pitch.shots.map((_, i) => i));
  const mediaIds = new Set(brief.media.map((m) => m.id));
  const codePaths = new Set(brief.code.map((c) => c.path));
  for (const shot of pitch.shots) {
    for (const id of shot.mediaIds) expect(mediaIds.has(id)).toBe(true);
    for (const path of shot.codePaths) expect(codePaths.has(path)).toBe(true);
    if (!brief.format.sound.voiceover) expect(shot.voiceover).toBeNull();
  }
  if (!brief.format.sound.music) expect(pitch.music).toBeNull();
  expect(pitch.estimatedCredits).toBe(creditsFor(brief.format.durationMs));
  if (pitch.verdict === 'skip') expect(pitch.verdictReason).toBeTruthy();
  // The text the writer wrote holds no half of a surrogate pair (references repeat the brief as it is).
  const written = [pitch.title, pitch.summary, pitch.verdictReason, pitch.music, ...pitch.shots.flatMap((s) => [s.title, s.visual, s.text, s.voiceover, s.beat])];
  for (const text of written) expect(text ?? '').not.toMatch(/\p{Cs}/u);
  expect(validatePitchFor(brief, pitch)).toEqual([]);
}

describe('the built-in writer, on any brief the spec allows', () => {
  it('never writes an invalid pitch, first version or revision', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof({ weight: 4, arbitrary: anyBrief }, { weight: 1, arbitrary: noiseOnlyBrief }), anyComments, async (input, comments) => {
        const brief = Brief.parse(input);
        const history: PitchComment[] = [];
        let previous: Pitch | null = null;
        for (let version = 1; version <= comments.length + 1; version++) {
          if (version > 1) history.push({ comment: comments[version - 2]!, pitchVersion: version - 1 });
          const pitch: Pitch = await writer.write({ brief, version, previous, comments: [...history] });
          expectValidPitch(brief, pitch, version);
          previous = pitch;
        }
      }),
      { numRuns: 150 },
    );
  });

  it('skips every brief whose only content is lockfiles, generated files or whitespace edits', async () => {
    await fc.assert(
      fc.asyncProperty(noiseOnlyBrief, async (input) => {
        const brief = Brief.parse(input);
        const pitch = await writer.write({ brief, version: 1, previous: null, comments: [] });
        expect(pitch.verdict).toBe('skip');
        expectValidPitch(brief, pitch, 1);
      }),
      { numRuns: 100 },
    );
  });
});
