import { describe, expect, it } from 'vitest';
import { NUL_REFUSED } from '@vp/contracts';
import { sampleBrief, shortPitch } from '../testing/fixtures.ts';
import { transitionInto, transitionMsBetween, voiceOffsetMs } from './choreography.ts';
import { composeProduction } from './compose-production.ts';
import { contrast, readableOn } from '../style/color.ts';
import { editComposition, rebaseEdit } from './edit.ts';
import type { Composition } from './schema.ts';

const base = composeProduction({ brief: sampleBrief((path) => `https://media.example.com${path}`), pitch: shortPitch() });
const PAID = { maxDurationMs: base.durationMs, soundEffects: true };

function edited(edit: unknown, options: Parameters<typeof editComposition>[2] = PAID, from: Composition = base): Composition {
  const result = editComposition(from, edit, options);
  if ('issues' in result) throw new Error(`refused: ${JSON.stringify(result.issues)}`);
  return result.composition;
}

function issues(edit: unknown, options: Parameters<typeof editComposition>[2] = PAID) {
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
    // Its cue is the cut, where a transition (half before, half after) is at its middle.
    expect(whooshes).toEqual([['shot-1', 0], ['shot-2', 0]]);
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

  it('refuses a scene of words left without any', () => {
    expect(issues({ scenes: { 0: { title: '', text: ' ' } } })).toEqual([{ path: 'scenes.0.title', message: 'This scene shows only words: give it a heading or a text.' }]);
    expect(edited({ scenes: { 0: { title: '' } } }).scenes[0]).toMatchObject({ title: null, text: base.scenes[0]!.text });
  });

  it('keeps a cut instant, with no whoosh, and gives another transition left at 0 ms its usual length', () => {
    const next = edited({ scenes: { 1: { transition: { kind: 'cut' } }, 2: { transition: { durationMs: '0' } } } });
    expect(next.scenes[1]?.transition).toEqual({ kind: 'cut', durationMs: 0 });
    expect(next.scenes[2]?.transition).toEqual(base.scenes[2]!.transition);
    expect(next.audio.sfx.filter((s) => s.kind === 'whoosh').map((s) => s.sceneId)).toEqual(['shot-2', 'shot-3']);
    // The first scene has no transition in: what is sent for it is ignored.
    expect(edited({ scenes: { 0: { transition: { kind: 'wipe', durationMs: 900 } } } })).toEqual(base);
  });

  it('places the effects again as the format asks: back when transitions come back, none when it has them off', () => {
    const quiet = edited({ scenes: { 1: { transition: { kind: 'cut' } }, 2: { transition: { kind: 'cut' } }, 3: { transition: { kind: 'cut' } } } });
    const again = edited({ scenes: { 2: { transition: { kind: 'fade', durationMs: 300 } } } }, PAID, quiet);
    expect(again.audio.sfx.some((s) => s.kind === 'whoosh' && s.sceneId === 'shot-2')).toBe(true);
    expect(edited({ scenes: { 0: { title: 'Quiet' } } }, { ...PAID, soundEffects: false }).audio.sfx).toEqual([]);
  });

  it('makes new colours readable as the composer does: the text follows the background, a lost accent is lifted', () => {
    const light = edited({ brand: { backgroundColor: '#FFFFFF', primaryColor: '#fefefe' } });
    expect(light.brand).toMatchObject({ backgroundColor: '#ffffff', textColor: readableOn('#ffffff'), name: base.brand.name, fontFamily: base.brand.fontFamily, logoUrl: base.brand.logoUrl });
    expect(contrast(light.brand.primaryColor, '#ffffff')).toBeGreaterThan(1.2);
    expect(issues({ brand: { textColor: '#000000' } })).toEqual([]); // not an editable field: ignored
  });

  it('changes nothing for a form sent back untouched, as a browser sends it', () => {
    const stored = {
      ...base,
      scenes: base.scenes.map((s, i) => (i === 2 ? { ...s, title: 'Acme\nLabs', text: '\n  Every render,\nat a glance ' } : s)),
    };
    const untouched = {
      // A colour picker answers in lower case; a program may not.
      brand: { primaryColor: base.brand.primaryColor.toUpperCase(), backgroundColor: base.brand.backgroundColor },
      scenes: Object.fromEntries(stored.scenes.map((s, i) => [i, {
        // An input loses its line breaks; a textarea its first one, and sends the others as CRLF.
        title: (s.title ?? '').replace(/\n/g, ''), text: (s.text ?? '').replace(/^\n/, '').replace(/\n/g, '\r\n'),
        durationMs: String(s.durationMs), transition: { kind: s.transition.kind, durationMs: String(s.transition.durationMs) }, position: String(i + 1), voiceover: '',
      }])),
      voiceover: Object.fromEntries(stored.audio.voiceover.map((l, i) => [i, `${l.text}\r\n`])),
    };
    expect(edited(untouched, PAID, stored)).toEqual(stored);
    // A line break is a change: the renderer breaks the line there.
    expect(edited({ scenes: { 1: { text: 'Faster\r\nand lighter' } } }, PAID, { ...base, scenes: base.scenes.map((s, i) => (i === 1 ? { ...s, text: 'Faster and lighter' } : s)) }).scenes[1]?.text)
      .toBe('Faster\nand lighter');
    expect(issues({ scenes: { 0: { durationMs: '0x1f4' }, 1: { durationMs: '5e2' } } }).map((i) => i.message)).toEqual(['a whole number of milliseconds', 'a whole number of milliseconds']);
  });

  it('moves a scene to another place and removes one, its voiceover line and media going with it', () => {
    const next = edited({ scenes: { 3: { position: '2' }, 2: { remove: 'on' } } });
    expect(next.scenes.map((s) => [s.id, s.startMs, s.durationMs])).toEqual([['shot-0', 0, 1100], ['shot-3', 1100, 1000], ['shot-1', 2100, 1500]]);
    expect(next.durationMs).toBe(3600);
    // Next to new neighbours, each keeps its kind of transition at the length the composer gives one there.
    expect(next.scenes.map((s) => s.transition)).toEqual([
      base.scenes[0]!.transition, { kind: 'fade', durationMs: transitionMsBetween([1100, 1000]) }, { kind: 'slide', durationMs: transitionMsBetween([1000, 1500]) },
    ]);
    expect(next.audio.voiceover.map((l) => l.sceneId)).toEqual(['shot-0', 'shot-1']);
    expect(next.media).toEqual([]);
    expect(next.audio.sfx.filter((s) => s.kind === 'whoosh').map((s) => s.sceneId)).toEqual(['shot-3', 'shot-1']);
    expect(edited({ scenes: { 1: { remove: true } } }).scenes.map((s) => s.id)).toEqual(['shot-0', 'shot-2', 'shot-3']);
    // As a page sends it, with every field: the stored length sent back is not a length typed.
    const sentBack = (i: number) => ({ transition: { kind: base.scenes[i]!.transition.kind, durationMs: String(base.scenes[i]!.transition.durationMs) } });
    const asSent = edited({ scenes: { 1: sentBack(1), 2: { ...sentBack(2), position: '2' }, 3: sentBack(3) } });
    expect(asSent.scenes.map((s) => [s.id, s.transition])).toEqual([
      ['shot-0', base.scenes[0]!.transition], ['shot-2', { kind: 'wipe', durationMs: transitionMsBetween([1100, 1400]) }],
      ['shot-1', { kind: 'slide', durationMs: transitionMsBetween([1400, 1500]) }], ['shot-3', { kind: 'fade', durationMs: transitionMsBetween([1500, 1000]) }],
    ]);
    expect(asSent.scenes[1]!.transition.durationMs).not.toBe(base.scenes[2]!.transition.durationMs);
    // A length typed there is kept.
    expect(edited({ scenes: { 3: { position: '2', transition: { durationMs: '250' } } } }).scenes[1]!.transition).toEqual({ kind: 'fade', durationMs: 250 });
  });

  it('gives a scene without a voiceover line a new one, in version 1\'s voice, placed after its cut', () => {
    const voice = { voice: 'en-gb', wordsPerMinute: 150 };
    const next = edited({ scenes: { 3: { voiceover: '  Try it today. ', position: '1' } } }, { ...PAID, voice });
    expect(next.audio.voiceover.map((l) => l.sceneId)).toEqual(['shot-3', 'shot-0', 'shot-1', 'shot-2']);
    expect(next.audio.voiceover[0]).toEqual({ sceneId: 'shot-3', text: 'Try it today.', offsetMs: voiceOffsetMs(next.scenes[0]!), ...voice });
    // Left empty, as a page sends it: nothing.
    expect(edited({ scenes: { 3: { voiceover: '' } } }, { ...PAID, voice })).toEqual(base);
    expect(editComposition(base, { scenes: { 0: { voiceover: 'Again.' }, 3: { voiceover: 'Hello.' } } }, PAID)).toEqual({ issues: [
      { path: 'scenes.0.voiceover', message: 'This scene has a voiceover line: change that one.' },
      { path: 'scenes.3.voiceover', message: 'This video has no voiceover: its format asked for none.' },
    ] });
  });

  it('refuses a typed line with more words than fit before the next line or the end, about three a second', () => {
    const long = 'Release two point five is here, with faster exports.';
    expect(issues({ voiceover: { 0: long } })).toEqual([
      { path: 'voiceover.0', message: expect.stringMatching(/^This line has 9 words; the 1\.\d s until the next line fit about 4: shorten it, or lengthen its scene\.$/) },
    ]);
    // Its scene made longer, the same line fits.
    expect(edited({ voiceover: { 0: long }, scenes: { 0: { durationMs: 3200 } } }, { ...PAID, maxDurationMs: 10_000 }).audio.voiceover[0]?.text).toBe(long);
    // A new line on the last scene has until the video ends.
    const voice = { voice: 'en-gb', wordsPerMinute: 150 };
    expect(issues({ scenes: { 3: { voiceover: 'Try it today, and tell everyone you know about it.' } } }, { ...PAID, voice })).toEqual([
      { path: 'scenes.3.voiceover', message: expect.stringMatching(/^This line has 10 words; the 0\.\d s until the video ends fit about [34]: /) },
    ]);
  });

  it('holds a line left as it was to its time only when the edit takes time from it', () => {
    const long = 'Release two point five is here, with faster exports.';
    const roomy = { ...PAID, maxDurationMs: 10_000 };
    const saved = edited({ voiceover: { 0: long }, scenes: { 0: { durationMs: 3200 } } }, roomy);
    // Its scene shortened again, with the line sent back as it was (a page sends every field).
    const result = editComposition(saved, { voiceover: { 0: long }, scenes: { 0: { durationMs: 1100 } } }, roomy);
    expect('issues' in result && result.issues).toEqual([{ path: 'voiceover.0', message: expect.stringMatching(/^This line has 9 words; the 1\.\d s until the next line fit/) }]);
    // A line already too long for its time (made before the rule) does not stop an edit elsewhere.
    const before = { ...base, audio: { ...base.audio, voiceover: base.audio.voiceover.map((line, i) => (i === 0 ? { ...line, text: long } : line)) } };
    expect(edited({ scenes: { 2: { title: 'The new dashboard' } } }, PAID, before).audio.voiceover[0]?.text).toBe(long);
  });


  it('gives a medium another address, fetched when the version is exported; the rest stays', () => {
    const next = edited({ media: { 0: { url: '  https://media.example.com/dashboard-v2.png ' } } });
    expect(next.media).toEqual([{ ...base.media[0]!, url: 'https://media.example.com/dashboard-v2.png' }]);
    expect(next.scenes).toEqual(base.scenes);
    // Sent back as the page shows it: nothing changes.
    expect(edited({ media: { 0: { url: base.media[0]!.url } } })).toEqual(base);
    expect(issues({ media: { 0: { url: 'ftp://media.example.com/a.png' } } })).toEqual([{ path: 'media.0.url', message: 'Must be an http or https address.' }]);
    expect(issues({ media: { 0: { url: '' } } })).toEqual([{ path: 'media.0.url', message: 'Must be an http or https address.' }]);
    // PostgreSQL stores no NUL, and no address holds one.
    expect(issues({ media: { 0: { url: 'https://media.example.com/a\0.png' } } })).toEqual([{ path: 'media.0.url', message: NUL_REFUSED }]);
    expect(issues({ media: { 1: { url: 'https://media.example.com/b.png' } } })).toEqual([{ path: 'media.1', message: 'The project has nothing at this index.' }]);
  });

  it('switches the music bed off, and back on at version 1\'s bed, at the level asked', () => {
    const music = base.audio.music!;
    expect(edited({ music: { gainDb: '-12' } }).audio.music).toEqual({ ...music, gainDb: -12 });
    const silent = edited({ music: { bed: 'off', gainDb: '-12' } });
    expect(silent.audio.music).toBeNull();
    // As a page sends it when the bed is off: the level left empty takes version 1's.
    expect(edited({ music: { bed: 'on', gainDb: '' } }, { ...PAID, music }, silent).audio.music).toEqual(music);
    expect(edited({ music: { bed: 'on', gainDb: '-20' } }, { ...PAID, music }, silent).audio.music).toEqual({ ...music, gainDb: -20 });
    // Left as the page shows it: nothing changes.
    expect(edited({ music: { bed: 'on', gainDb: String(music.gainDb) } })).toEqual(base);
    expect(edited({ music: { bed: 'off', gainDb: '' } }, PAID, silent)).toEqual(silent);
    const refused = editComposition(silent, { music: { bed: 'on' } }, PAID);
    expect(refused).toEqual({ issues: [{ path: 'music.bed', message: 'This video has no music bed: its format asked for none.' }] });
    expect(issues({ music: { bed: 'loud', gainDb: '3' } })).toEqual([
      { path: 'music.bed', message: 'on or off' }, { path: 'music.gainDb', message: 'a whole number of decibels from -40 to 0' },
    ]);
    expect(issues({ music: { gainDb: '-6.5' } })).toEqual([{ path: 'music.gainDb', message: 'a whole number of decibels from -40 to 0' }]);
  });

  it('puts a scene moved later after the one whose place it takes; the new first scene has no transition in', () => {
    const next = edited({ scenes: { 0: { position: 3 } } });
    expect(next.scenes.map((s) => s.id)).toEqual(['shot-1', 'shot-2', 'shot-0', 'shot-3']);
    expect(next.scenes[0]!.transition).toEqual({ kind: 'cut', durationMs: 0 });
    // Still after the same scene: its transition stays as made.
    expect(next.scenes[1]!.transition).toEqual(base.scenes[2]!.transition);
    // The scene made first had none: it takes the composer's.
    expect(next.scenes[2]!.transition).toEqual(transitionInto('title', 'wipe', [1400, 1100]));
    expect(next.audio.voiceover.map((l) => l.sceneId)).toEqual(['shot-1', 'shot-2', 'shot-0']);
    expect(edited({ scenes: { 2: { position: 1 } } }).scenes.map((s) => s.id)).toEqual(['shot-2', 'shot-0', 'shot-1', 'shot-3']);
    // Two scenes swapped by their places.
    expect(edited({ scenes: { 1: { position: 3 }, 2: { position: 2 } } }).scenes.map((s) => s.id)).toEqual(['shot-0', 'shot-2', 'shot-1', 'shot-3']);
  });

  it('keeps at least one scene, and names a problem by the scene\'s index on the form', () => {
    expect(issues({ scenes: { 0: { remove: 'on' }, 1: { remove: 'on' }, 2: { remove: 'on' }, 3: { remove: 'on' } } })).toEqual([{ path: 'scenes', message: 'Keep at least one scene.' }]);
    expect(issues({ scenes: { 3: { position: 1, title: '', text: '' } } })).toEqual([{ path: 'scenes.3.title', message: 'This scene shows only words: give it a heading or a text.' }]);
    expect(issues({ scenes: { 3: { position: 2, transition: { durationMs: 1100 } } } })).toEqual([
      { path: 'scenes.3.transition.durationMs', message: 'A transition lasts at most as long as the scenes either side of it: 1000 ms here' },
    ]);
    expect(issues({ scenes: { 0: { position: '0' }, 1: { position: 'last' }, 2: { position: 41 }, 3: { remove: 'maybe' } } })).toEqual([
      { path: 'scenes.0.position', message: 'a place from 1 to 40' }, { path: 'scenes.1.position', message: 'a place from 1 to 40' },
      { path: 'scenes.2.position', message: 'a place from 1 to 40' }, { path: 'scenes.3.remove', message: 'ticked or not' },
    ]);
  });

  it('gives a cut turned into another transition the length the composer gives one there', () => {
    const cut = edited({ scenes: { 2: { transition: { kind: 'cut' } } } });
    const faded = edited({ scenes: { 2: { transition: { kind: 'fade', durationMs: '0' } } } }, PAID, cut);
    expect(faded.scenes[2]?.transition).toEqual({ kind: 'fade', durationMs: base.scenes[2]!.transition.durationMs });
  });
});

describe('rebaseEdit', () => {
  it('carries onto a newer version only the fields a form changed, each line onto its scene', () => {
    const newer = edited({ scenes: { 2: { title: 'Theirs' } }, voiceover: { 0: '' } });
    const form = {
      brand: { primaryColor: base.brand.primaryColor, backgroundColor: base.brand.backgroundColor },
      scenes: Object.fromEntries(base.scenes.map((s, i) => [i, { title: i === 0 ? 'Mine' : s.title ?? '', text: s.text ?? '', durationMs: String(s.durationMs) }])),
      voiceover: { 0: 'Dropped by them, changed by me', 1: 'Changed line', 2: base.audio.voiceover[2]!.text },
    };
    expect(rebaseEdit(base, newer, form)).toEqual({ values: { scenes: { 0: { title: 'Mine' } }, voiceover: { 0: 'Changed line' } }, lost: 1 });
    // Emptied here and dropped there: nothing was lost.
    expect(rebaseEdit(base, newer, { ...form, voiceover: { 0: '' } }).lost).toBe(0);
    expect(newer.audio.voiceover[0]?.sceneId).toBe(base.audio.voiceover[1]?.sceneId);
  });

  it('carries a medium\'s new address onto its medium, and counts one the newer version dropped', () => {
    const url = 'https://media.example.com/dashboard-v2.png';
    const moved = edited({ scenes: { 2: { position: 1 } } });
    expect(rebaseEdit(base, moved, { media: { 0: { url } } })).toEqual({ values: { media: { 0: { url } } }, lost: 0 });
    // The newer version removed the only scene that showed it.
    const without = edited({ scenes: { 2: { remove: 'on' } } });
    expect(rebaseEdit(base, without, { media: { 0: { url } } })).toEqual({ values: {}, lost: 1 });
  });

  it('carries a change to the music bed', () => {
    const newer = edited({ scenes: { 0: { title: 'Theirs' } } });
    const form = { music: { bed: 'off', gainDb: String(base.audio.music!.gainDb) } };
    expect(rebaseEdit(base, newer, form)).toEqual({ values: { music: { bed: 'off' } }, lost: 0 });
  });

  it('moves a scene\'s changes to its place in the newer version, and counts those to a scene it removed', () => {
    const newer = edited({ scenes: { 1: { remove: 'on' }, 3: { position: 1 } } });
    expect(newer.scenes.map((s) => s.id)).toEqual(['shot-3', 'shot-0', 'shot-2']);
    const form = {
      scenes: Object.fromEntries(base.scenes.map((s, i) => [i, { title: s.title ?? '', position: String(i + 1) }])),
    };
    form.scenes[2]!.title = 'Mine';
    form.scenes[1]!.title = 'Gone there';
    form.scenes[0]!.position = '4';
    // The newer version has three scenes: place 4 is its last, 3.
    expect(rebaseEdit(base, newer, form)).toEqual({ values: { scenes: { 1: { position: '3' }, 2: { title: 'Mine' } } }, lost: 1 });
    // Removed here too: nothing was lost.
    expect(rebaseEdit(base, newer, { scenes: { ...form.scenes, 1: { ...form.scenes[1], remove: 'on' } } }).lost).toBe(0);
  });
});

describe('editComposition: words on screen', () => {
  const long = 'Every render now streams its frames straight into the encoder, so that a ten second clip is ready in half the time it took, whatever its size';

  it('refuses a heading or a text typed too long for any size of its box on the frame, naming it', () => {
    const result = editComposition(base, { scenes: { 2: { title: long, text: 'Fine' } } }, PAID);
    expect('issues' in result && result.issues).toEqual([{ path: 'scenes.2.title', message: 'This does not fit on screen, even at the smallest type: shorten it.' }]);
    expect(edited({ scenes: { 2: { title: 'A new dashboard for every render' } } }).scenes[2]?.title).toBe('A new dashboard for every render');
  });

  it('holds only the words typed in this edit to it: a stored text sent back as it was stays', () => {
    const stored = { ...base, scenes: base.scenes.map((s, i) => (i === 2 ? { ...s, title: long } : s)) };
    expect(edited({ scenes: { 2: { title: long, durationMs: 1200 } } }, PAID, stored).scenes[2]?.title).toBe(long);
  });
});
