import { Brief, creditsFor, Pitch, spokenWords } from '@vp/contracts';
import { composeProduction } from '@vp/render';
import { unfittedTexts } from '@vp/render/layouts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { announcingBrief, anyBrief, anyComments, noiseOnlyBrief } from '../testing/arbitraries.ts';
import { oneLine } from '../text.ts';
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
  if (pitch.verdict === 'video') expectWholeWords(brief, pitch);
}

/** Every word the brief wrote, as one lower-case line, to find an ellipsis of its own in. */
function briefWords(brief: Brief): string {
  const texts = [brief.intent, brief.context, brief.brand.name, ...brief.media.flatMap((m) => [m.name, m.description]), ...brief.code.flatMap((c) => [c.path, c.digest, c.patch])];
  return oneLine(texts.filter(Boolean).join('\n')).toLocaleLowerCase('en');
}

/**
 * What is shown and said is whole: no ellipsis but the brief's own (the word before it is the
 * brief's), every on-screen text in its box at a size of the type scale (the renderer's own
 * measure of the composed video), no caption or voiceover line said twice.
 */
function expectWholeWords(brief: Brief, pitch: Pitch) {
  const own = briefWords(brief);
  const written = [pitch.title, ...pitch.shots.flatMap((s) => [s.title, s.text, s.voiceover])].filter((t): t is string => Boolean(t));
  for (const text of written) {
    for (const match of oneLine(text).toLocaleLowerCase('en').matchAll(/([\p{L}\p{N}]*)\s*…/gu)) {
      expect(own, `“${text}” ends on an ellipsis of its own`).toContain(`${match[1]}…`);
    }
  }
  expect(unfittedTexts(composeProduction({ brief, pitch }))).toEqual([]);
  const key = (text: string) => spokenWords(text).join(' ') || text;
  for (const field of ['text', 'voiceover'] as const) {
    const said = pitch.shots.flatMap((s) => (s[field] ? [key(s[field])] : []));
    expect(new Set(said).size, `two shots share a ${field}`).toBe(said.length);
  }
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

  it('never keeps the verb that announces a product as part of its name', async () => {
    await fc.assert(
      fc.asyncProperty(announcingBrief, async ({ input, verb, product }) => {
        const brief = Brief.parse(input);
        const pitch = await writer.write({ brief, version: 1, previous: null, comments: [] });
        const name = product.toLocaleLowerCase('en');
        // The writer's own greetings ("Meet Acme Review", "Introducing Acme Review") are set aside: the brief's verb must not be there.
        const shown = [pitch.title, pitch.summary, ...pitch.shots.flatMap((s) => [s.title, s.text, s.voiceover])].join('\n').toLocaleLowerCase('en')
          .replaceAll(`meet ${name}`, name).replaceAll(`introducing ${name}`, name).replaceAll(`say hello to ${name}`, name);
        expect(shown).not.toContain(`${verb.toLocaleLowerCase('en')} ${name}`);
        expectValidPitch(brief, pitch, 1);
      }),
      { numRuns: 60 },
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
