import { Brief, type BriefInput } from '@vp/contracts';
import { composeProduction } from '@vp/render';
import { describe, expect, it } from 'vitest';
import { validatePitchFor } from '../validate.ts';
import { createBuiltinWriter } from './writer.ts';

// The renderer's composer over the pitches this writer writes (moved here from the renderer's
// tests when the writer came to depend on the renderer's layouts).
const url = (path: string) => `https://media.example.com${path}`;

describe('composeProduction of the built-in writer\'s pitches', () => {
  const writer = createBuiltinWriter({ now: () => new Date('2026-01-01T00:00:00Z') });
  const images = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `shot${i + 1}`, kind: 'image' as const, url: url(`/shot${i + 1}.png`), name: `Screenshot ${i + 1}` }));
  const codeFiles = (n: number) => Array.from({ length: n }, (_, i) => ({
    path: `src/module${i + 1}/index.ts`, source: `export const value${i + 1} = ${i + 1};\n`, status: 'modified' as const, additions: 1, deletions: 1,
    patch: `@@ -1,1 +1,1 @@\n-export const value${i + 1} = 0;\n+export const value${i + 1} = ${i + 1};`,
  }));
  const made = async (input: Omit<BriefInput, 'intent'>) => {
    const brief = Brief.parse({ intent: 'Announce the release', ...input });
    const pitch = await writer.write({ brief, version: 1, previous: null, comments: [] });
    expect(validatePitchFor(brief, pitch)).toEqual([]);
    return { pitch, composition: composeProduction({ brief, pitch }) };
  };

  it('makes a video of 10 pictures in 10 s: a shot given more than it can show keeps what stays readable', async () => {
    const { pitch, composition } = await made({ media: images(10) });
    expect(Math.max(...pitch.shots.map((s) => s.mediaIds.length))).toBeGreaterThan(6);
    expect(composition.durationMs).toBe(10_000);
    for (const scene of composition.scenes) {
      expect(scene.media.length).toBeLessThanOrEqual(Math.max(1, Math.floor(scene.durationMs / 1000)));
    }
    expect(composition.media.length).toBeGreaterThan(0);
  });

  it('makes a video of 20 pictures in 5 s', async () => {
    const { composition } = await made({ media: images(20), format: { durationMs: 5000 } });
    expect(composition.durationMs).toBe(5000);
    expect(composition.scenes.every((scene) => scene.media.length <= 6)).toBe(true);
  });

  it('makes a video of 24 code files and 20 pictures in 120 s: code shots cut to pictures while there is room for 40 scenes', async () => {
    const { pitch, composition } = await made({ media: images(20), code: codeFiles(24), format: { durationMs: 120_000 } });
    expect(pitch.shots).toHaveLength(24);
    expect(composition.scenes).toHaveLength(40);
    expect(composition.durationMs).toBe(120_000);
    expect(composition.scenes.filter((s) => s.id.endsWith('-media'))).toHaveLength(16);
  });

  it('drops the music bed when a revision drops the music, though the format still allows it', async () => {
    const brief = Brief.parse({ intent: 'Announce the release', media: images(2) });
    const first = await writer.write({ brief, version: 1, previous: null, comments: [] });
    expect(composeProduction({ brief, pitch: first }).audio.music).not.toBeNull();
    const revised = await writer.write({ brief, version: 2, previous: first, comments: [{ comment: 'Please drop the music.', pitchVersion: 1 }] });
    expect(revised.music).toBeNull();
    const composition = composeProduction({ brief, pitch: revised });
    expect(composition.audio.music).toBeNull();
    expect(composition.audio.sfx.length).toBeGreaterThan(0);
  });
});
