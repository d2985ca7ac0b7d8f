import { ASPECTS, MEDIA_URL_MAX_LENGTH } from '@vp/contracts';
import { describe, expect, it } from 'vitest';
import { CODE_FILE, sampleBrief, samplePitch, shortPitch } from '../testing/fixtures.ts';
import { composeImages } from './compose-images.ts';
import { composeProduction } from './compose-production.ts';
import { ASPECT_SIZES, RESOLUTION_SIZES, RESOLUTIONS } from './frame-size.ts';
import { Composition, retime } from './schema.ts';

const url = (path: string) => `https://media.example.com${path}`;

describe('composeProduction', () => {
  it.each(ASPECTS)('sizes a %s video as DECISIONS says, 1080 on the short side', (aspect) => {
    const composition = composeProduction({ brief: sampleBrief(url, { aspect }), pitch: shortPitch() });
    expect({ width: composition.width, height: composition.height }).toEqual(ASPECT_SIZES[aspect]);
    expect(Math.min(composition.width, composition.height)).toBe(1080);
  });

  it('composes every brief the API takes: media and logo addresses as long as it accepts', () => {
    // A signed storage URL: the address, then a long token.
    const signed = (length: number) => (path: string) => `${url(path)}?token=`.padEnd(length, 'x');
    const brief = sampleBrief(signed(MEDIA_URL_MAX_LENGTH));
    const composition = composeProduction({ brief, pitch: shortPitch() });
    expect(composition.brand.logoUrl).toHaveLength(MEDIA_URL_MAX_LENGTH);
    expect(composition.media[0]?.url).toHaveLength(MEDIA_URL_MAX_LENGTH);
    expect(() => sampleBrief(signed(MEDIA_URL_MAX_LENGTH + 1))).toThrow(/too big/i);
  });

  it('lays the shots end to end: the video lasts exactly the pitch', () => {
    const composition = composeProduction({ brief: sampleBrief(url), pitch: shortPitch() });
    expect(composition.durationMs).toBe(5000);
    expect(composition.scenes.map((s) => [s.id, s.kind, s.startMs, s.durationMs])).toEqual([
      ['shot-0', 'title', 0, 1100],
      ['shot-1', 'code', 1100, 1500],
      ['shot-2', 'media', 2600, 1400],
      ['shot-3', 'outro', 4000, 1000],
    ]);
    expect(composition.scenes[0]?.transition.kind).toBe('cut');
    expect(composition.scenes.slice(1).every((s) => s.transition.kind !== 'cut' && s.transition.durationMs > 0)).toBe(true);
  });

  it('keeps the brand, the media used and the code with its changed lines', () => {
    const composition = composeProduction({ brief: sampleBrief(url), pitch: shortPitch(['dashboard', 'missing']) });
    expect(composition.brand).toMatchObject({ name: 'Acme', primaryColor: '#ff5a36', backgroundColor: '#101522', fontFamily: 'Noto Sans', logoUrl: url('/logo.png') });
    expect(composition.media.map((m) => m.id)).toEqual(['dashboard']);
    expect(composition.scenes[2]?.media.map((m) => m.assetId)).toEqual(['dashboard']);
    const code = composition.scenes[1]?.code;
    expect(code).toMatchObject({ path: CODE_FILE.path, language: 'typescript', status: 'modified', additions: 1, deletions: 1 });
    const changed = code?.lines.filter((line) => line.change !== 'context');
    expect(changed).toEqual([
      { number: 61, text: '  const timeoutMs = 10_000;', change: 'removed' },
      { number: 61, text: '  const timeoutMs = options.timeoutMs ?? 30_000;', change: 'added' },
    ]);
    expect(code?.lines[code.focusLine]?.change).toBe('removed');
  });

  it('plans the soundtrack from the shots and the sound switches', () => {
    const all = composeProduction({ brief: sampleBrief(url), pitch: shortPitch() });
    expect(all.audio.voiceover.map((line) => [line.sceneId, line.text])).toEqual([
      ['shot-0', 'Release two point four.'], ['shot-1', 'Timeouts are configurable.'], ['shot-2', 'A new dashboard.'],
    ]);
    expect(all.audio.music).not.toBeNull();
    expect(all.audio.sfx.filter((s) => s.kind === 'whoosh')).toHaveLength(3);
    const none = composeProduction({ brief: sampleBrief(url, { sound: { voiceover: false, music: false, sfx: false } }), pitch: shortPitch() });
    expect(none.audio).toMatchObject({ voiceover: [], music: null, sfx: [] });
  });

  it('falls back to default colours for colours it cannot read, and keeps an accent visible', () => {
    const brief = sampleBrief(url);
    const odd = composeProduction({ brief: { ...brief, brand: { ...brief.brand, primaryColor: 'not a colour', backgroundColor: 'rebeccapurple' } }, pitch: shortPitch() });
    expect(odd.brand.backgroundColor).toBe('#663399');
    expect(odd.brand.primaryColor).toMatch(/^#[0-9a-f]{6}$/);
    const same = composeProduction({ brief: { ...brief, brand: { ...brief.brand, primaryColor: '#101522' } }, pitch: shortPitch() });
    expect(same.brand.primaryColor).not.toBe('#101522');
  });

  it('is plain JSON a person can edit: it survives a round trip and rejects scenes that overlap', () => {
    const composition = composeProduction({ brief: sampleBrief(url), pitch: shortPitch() });
    expect(Composition.parse(JSON.parse(JSON.stringify(composition)))).toEqual(composition);
    const edited = { ...composition, scenes: composition.scenes.map((s, i) => (i === 1 ? { ...s, durationMs: 2500 } : s)) };
    expect(Composition.safeParse(edited).success).toBe(false);
    const fixed = retime(edited);
    expect(Composition.safeParse(fixed).success).toBe(true);
    expect(fixed.durationMs).toBe(6000);
  });

  it('refuses a medium id given twice and a code focus past its lines, naming where', () => {
    const composition = composeProduction({ brief: sampleBrief(url), pitch: shortPitch() });
    const issues = (value: unknown) => Composition.safeParse(value).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    const asset = composition.media[0]!;
    expect(issues({ ...composition, media: [...composition.media, asset] })).toEqual([`media.${composition.media.length}.id: Duplicate media id ${asset.id}`]);
    const at = composition.scenes.findIndex((scene) => scene.code && scene.code.lines.length > 0);
    const code = composition.scenes[at]!.code!;
    const scenes = composition.scenes.map((scene, i) => (i === at ? { ...scene, code: { ...code, focusLine: code.lines.length } } : scene));
    expect(issues({ ...composition, scenes })).toEqual([`scenes.${at}.code.focusLine: The focus line is one of the ${code.lines.length} lines`]);
  });

  it('signs the end card off with the brand, else the video\'s title, and the last shot\'s line beneath', () => {
    const pitch = samplePitch([
      { title: 'What\'s new', durationMs: 2000, text: 'Release 2.4' },
      { title: 'Call to action', durationMs: 2000, text: 'Try it today.' },
    ]);
    const brief = sampleBrief(url);
    const outro = (b: typeof brief) => composeProduction({ brief: b, pitch }).scenes[1];
    expect(outro(brief)).toMatchObject({ kind: 'outro', title: 'Acme', text: 'Try it today.' });
    expect(outro({ ...brief, brand: { ...brief.brand, name: null } })).toMatchObject({ kind: 'outro', title: 'Release 2.4', text: 'Try it today.' });
  });

  it('cuts a code shot that also shows a picture to it for the last part of its time, when both parts have room', () => {
    const brief = sampleBrief(url);
    const described = { ...brief, media: brief.media.map((m) => (m.id === 'dashboard' ? { ...m, description: 'Every render at a glance.' } : m)) };
    const pitch = (durationMs: number) => samplePitch([
      { title: 'Release 2.4', durationMs: 2000 },
      { title: 'Configurable timeouts', durationMs, codePaths: [CODE_FILE.path], mediaIds: ['dashboard'], text: 'Timeouts you choose', voiceover: 'Timeouts are configurable.' },
      { title: 'Try it today', durationMs: 2000, voiceover: 'Try it today.' },
    ]);
    const long = composeProduction({ brief: described, pitch: pitch(5000) });
    expect(long.scenes.map((s) => [s.id, s.kind, s.startMs, s.durationMs, s.text])).toEqual([
      ['shot-0', 'title', 0, 2000, null],
      ['shot-1', 'code', 2000, 3000, 'Timeouts you choose'],
      ['shot-1-media', 'media', 5000, 2000, 'Every render at a glance.'],
      ['shot-2', 'outro', 7000, 2000, null],
    ]);
    expect(long.scenes[2]).toMatchObject({ title: 'Configurable timeouts', code: null, media: [{ assetId: 'dashboard' }] });
    expect(long.scenes[2]?.transition.durationMs).toBeGreaterThan(0);
    expect(long.durationMs).toBe(9000);
    // Each shot's line stays on its own shot: the cut-in has none of its own.
    expect(long.audio.voiceover.map((line) => [line.sceneId, line.text])).toEqual([['shot-1', 'Timeouts are configurable.'], ['shot-2', 'Try it today.']]);
    expect(long.media.map((m) => m.id)).toEqual(['dashboard']);

    // Too short to show both: the editor alone, and the picture is not even fetched.
    const short = composeProduction({ brief: described, pitch: pitch(2500) });
    expect(short.scenes.map((s) => s.kind)).toEqual(['title', 'code', 'outro']);
    expect(short.media).toEqual([]);
  });

  it('sorts shots by their index and uses a text scene for shots without media or code', () => {
    const pitch = samplePitch([
      { title: 'Why', durationMs: 2000, text: 'Because timeouts matter' },
      { title: 'Opening', durationMs: 2000 },
      { title: 'End', durationMs: 2000 },
    ]);
    pitch.shots = [pitch.shots[1]!, pitch.shots[0]!, pitch.shots[2]!].map((shot, i) => ({ ...shot, index: [1, 0, 2][i]! }));
    const composition = composeProduction({ brief: sampleBrief(url), pitch });
    expect(composition.scenes.map((s) => s.kind)).toEqual(['title', 'text', 'outro']);
  });
});

describe('composeImages', () => {
  const images = (n: number) => Array.from({ length: n }, (_, i) => ({ url: url(`/${i}.png`) }));

  it.each(RESOLUTIONS)('sizes a %s render', (resolution) => {
    const composition = composeImages({ images: images(2), resolution, background: 'black', appName: 'Acme', accent: '#22c55e' });
    expect({ width: composition.width, height: composition.height }).toEqual(RESOLUTION_SIZES[resolution]);
  });

  it('shows a title, each image for 3 s with a camera move, and an end card', () => {
    const composition = composeImages({ images: images(3), resolution: '720p', background: 'white', appName: 'Acme', accent: 'teal' });
    expect(composition.durationMs).toBe(2000 + 3 * 3000 + 1500);
    expect(composition.scenes.map((s) => s.kind)).toEqual(['title', 'media', 'media', 'media', 'outro']);
    expect(composition.brand).toMatchObject({ backgroundColor: '#ffffff', primaryColor: '#008080', name: 'Acme' });
    expect(composition.audio.voiceover).toEqual([]);
    expect(new Set(composition.scenes.flatMap((s) => s.media.map((m) => JSON.stringify(m.camera)))).size).toBe(3);
  });

  it('takes 1 to 10 images', () => {
    expect(composeImages({ images: images(10), resolution: '480p', background: 'black' }).media).toHaveLength(10);
    expect(() => composeImages({ images: [], resolution: '480p', background: 'black' })).toThrow(RangeError);
    expect(() => composeImages({ images: images(11), resolution: '480p', background: 'black' })).toThrow(RangeError);
  });
});
