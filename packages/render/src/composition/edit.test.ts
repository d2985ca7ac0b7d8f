import { describe, expect, it } from 'vitest';
import { sampleBrief, shortPitch } from '../testing/fixtures.ts';
import { composeProduction } from './compose-production.ts';
import { editComposition } from './edit.ts';
import type { Composition } from './schema.ts';

const base = composeProduction({ brief: sampleBrief((path) => `https://media.example.com${path}`), pitch: shortPitch() });
const PAID = { maxDurationMs: base.durationMs };

function edited(edit: unknown, options = PAID): Composition {
  const result = editComposition(base, edit, options);
  if ('issues' in result) throw new Error(`refused: ${JSON.stringify(result.issues)}`);
  return result.composition;
}

function issues(edit: unknown, options = PAID) {
  const result = editComposition(base, edit, options);
  return 'issues' in result ? result.issues : [];
}

describe('editComposition', () => {
  it('changes words, colours, a length and a transition, and leaves the rest as made', () => {
    const next = edited({
      brand: { primaryColor: '#00AA55' },
      scenes: { 0: { title: '  Release 2.5 ', durationMs: 1500 }, 2: { text: 'The new dashboard', durationMs: 1000, transition: { kind: 'fade', durationMs: 200 } } },
    });
    expect(next.brand).toEqual({ ...base.brand, primaryColor: '#00aa55' });
    expect(next.scenes.map((s) => [s.id, s.startMs, s.durationMs])).toEqual([
      ['shot-0', 0, 1500], ['shot-1', 1500, 1500], ['shot-2', 3000, 1000], ['shot-3', 4000, 1000],
    ]);
    expect(next.durationMs).toBe(5000);
    expect(next.scenes[0]).toMatchObject({ title: 'Release 2.5', text: base.scenes[0]!.text });
    expect(next.scenes[2]).toMatchObject({ text: 'The new dashboard', transition: { kind: 'fade', durationMs: 200 }, media: base.scenes[2]!.media });
    expect(next.scenes[1]).toEqual({ ...base.scenes[1], startMs: 1500 });
    expect(next.media).toEqual(base.media);
  });

  it('takes a form\'s text for numbers, and an empty field as no change', () => {
    const next = edited({ scenes: { 1: { durationMs: '1200', transition: { durationMs: '' } } } });
    expect(next.scenes[1]).toMatchObject({ durationMs: 1200, transition: base.scenes[1]!.transition });
  });

  it('moves the sound with the picture: each line after its scene\'s cut, each whoosh centred on its transition', () => {
    const next = edited({ scenes: { 1: { transition: { kind: 'wipe', durationMs: 1000 }, durationMs: 1100 }, 3: { durationMs: 1400, transition: { kind: 'cut', durationMs: 0 } } } });
    const line = next.audio.voiceover.find((l) => l.sceneId === 'shot-1');
    expect(line?.offsetMs).toBe(600);
    const whooshes = next.audio.sfx.filter((s) => s.kind === 'whoosh').map((s) => [s.sceneId, s.offsetMs]);
    expect(whooshes).toEqual([['shot-1', -500], ['shot-2', expect.any(Number)]]);
    expect(next.audio.music).toEqual(base.audio.music);
  });

  it('drops a voiceover line whose words were emptied, and clears emptied on-screen text', () => {
    const next = edited({ voiceover: { 1: '   ' }, scenes: { 0: { text: '' } } });
    expect(next.audio.voiceover.map((l) => l.sceneId)).toEqual(['shot-0', 'shot-2']);
    expect(next.scenes[0]?.text).toBeNull();
    expect(edited({ voiceover: { 0: 'Version two point five.' } }).audio.voiceover[0]?.text).toBe('Version two point five.');
    // A browser sends a textarea's line breaks as CRLF.
    expect(edited({ scenes: { 0: { text: 'Faster\r\nand lighter\r' } } }).scenes[0]?.text).toBe('Faster\nand lighter');
  });

  it('keeps the video within the length its credits paid for: shorter is fine, longer is refused', () => {
    expect(edited({ scenes: { 3: { durationMs: 500 } } }).durationMs).toBe(4500);
    expect(issues({ scenes: { 3: { durationMs: 1600 } } })).toEqual([
      { path: 'durationMs', message: 'The scenes add up to 5.6 s; the video may last at most 5.0 s, the length its credits paid for.' },
    ]);
  });

  it('refuses a transition longer than a scene beside it', () => {
    expect(issues({ scenes: { 3: { transition: { durationMs: 1200 } } } })).toEqual([
      { path: 'scenes.3.transition.durationMs', message: 'A transition lasts at most as long as the scenes either side of it: 1000 ms here' },
    ]);
  });

  it('names every bad field by its path', () => {
    const found = issues({
      brand: { backgroundColor: 'red' },
      scenes: { 0: { durationMs: '1.5', title: 'x'.repeat(201) }, 1: { durationMs: 'soon', transition: { kind: 'spin' } }, 2: { durationMs: 100 }, 3: { text: 'a\0b' }, 9: { title: 'Nine' } },
      voiceover: { first: 'Hello' },
    });
    expect(found.map((i) => i.path).sort()).toEqual([
      'brand.backgroundColor', 'scenes.0.durationMs', 'scenes.0.title', 'scenes.1.durationMs', 'scenes.1.transition.kind', 'scenes.2.durationMs', 'scenes.3.text', 'voiceover.first',
    ]);
    expect(found.find((i) => i.path === 'scenes.3.text')?.message).toMatch(/NUL/);
    const message = (path: string) => found.find((i) => i.path === path)?.message;
    expect([message('scenes.0.durationMs'), message('scenes.1.durationMs'), message('scenes.2.durationMs')])
      .toEqual(['a whole number of milliseconds', 'a whole number of milliseconds', 'at least 300 ms']);
    expect(issues({ scenes: { 1: { transition: { durationMs: 4000 } } } })).toEqual([{ path: 'scenes.1.transition.durationMs', message: 'at most 2000 ms' }]);
    expect(issues({ scenes: { 9: { title: 'Nine' } }, voiceover: { 7: 'Seven' } })).toEqual([
      { path: 'scenes.9', message: 'The project has nothing at this index.' },
      { path: 'voiceover.7', message: 'The project has nothing at this index.' },
    ]);
    expect(issues('not an edit')).toHaveLength(1);
  });
});
