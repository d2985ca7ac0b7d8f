import type { Pitch } from '@vp/contracts';
import { describe, expect, it } from 'vitest';
import { brief, codeFile, image, video, whitespacePatch } from '../testing/briefs.ts';
import { validatePitchFor } from '../validate.ts';
import type { PitchComment, WriteInput } from '../writer.ts';
import { createBuiltinWriter } from './writer.ts';

const writer = createBuiltinWriter({ now: () => new Date('2026-01-01T00:00:00Z') });
const first = (b: WriteInput['brief']) => writer.write({ brief: b, version: 1, previous: null, comments: [] });
const words = (pitch: Pitch) => JSON.stringify([pitch.title, pitch.shots.map((s) => [s.title, s.text, s.voiceover])]);

/** Writes version 1, then one version per comment, each answering the comment history so far. */
async function revise(b: WriteInput['brief'], ...comments: string[]): Promise<Pitch[]> {
  const versions = [await first(b)];
  const history: PitchComment[] = [];
  for (const comment of comments) {
    history.push({ comment, pitchVersion: versions.length });
    versions.push(await writer.write({ brief: b, version: versions.length + 1, previous: versions.at(-1)!, comments: [...history] }));
  }
  return versions;
}

const release = brief({
  intent: 'Show off the 2.3 release of the billing dashboard',
  code: [
    codeFile('src/tax/round.ts', { score: 0.4, additions: 3, deletions: 3 }),
    codeFile('src/billing/InvoiceExport.ts', { status: 'added', score: 0.9, additions: 120, deletions: 0, digest: 'Invoices export to CSV in one click.' }),
    codeFile('src/cache/index.ts', { score: 0.4, additions: 40, deletions: 12 }),
    codeFile('pnpm-lock.yaml', { score: 1, additions: 900, deletions: 800 }),
    codeFile('dist/app.min.js', { score: 1 }),
  ],
  format: { durationMs: 15_000 },
});

describe('the built-in writer: a changelog', () => {
  it('gives each meaningful change its own shot, ranked by score and then by size', async () => {
    const pitch = await first(release);
    expect(pitch.shots.flatMap((s) => s.codePaths)).toEqual(['src/billing/InvoiceExport.ts', 'src/cache/index.ts', 'src/tax/round.ts']);
    expect(pitch.shots[0]?.title).toMatch(/what's new/i);
    expect(pitch.shots.at(-1)?.title).toBe('Call to action');
    expect(validatePitchFor(release, pitch)).toEqual([]);
  });

  it('sums the video up in its first words, with the article its length is spoken with', async () => {
    expect((await first(release)).summary).toMatch(/^A 15-second tour of what is new in /);
    expect((await first(brief({ format: { durationMs: 8000 } }))).summary).toMatch(/^An 8-second tour of /);
  });

  it('never shows lockfiles or generated files', async () => {
    const paths = (await first(release)).shots.flatMap((s) => s.codePaths);
    expect(paths).not.toContain('pnpm-lock.yaml');
    expect(paths).not.toContain('dist/app.min.js');
  });

  it('folds the changes that do not fit into one roundup shot, so every shot stays readable', async () => {
    const code = Array.from({ length: 30 }, (_, i) => codeFile(`src/feature-${String(i).padStart(2, '0')}.ts`, { score: 1 - i / 30 }));
    const b = brief({ code, format: { durationMs: 10_000 } });
    const pitch = await first(b);
    expect(pitch.shots.length).toBeLessThanOrEqual(5);
    for (const shot of pitch.shots) expect(shot.durationMs).toBeGreaterThanOrEqual(1500);
    const roundup = pitch.shots.find((s) => s.codePaths.length > 1);
    expect(roundup?.title).toMatch(/more/i);
    expect(pitch.shots.flatMap((s) => s.codePaths).sort()).toEqual(code.map((c) => c.path).sort());
    expect(pitch.shots[1]?.codePaths).toEqual(['src/feature-00.ts']);
  });

  it('adds up exactly to the brief\'s length, whatever it is', async () => {
    for (const durationMs of [5000, 7777, 60_001, 120_000]) {
      const b = brief({ ...release, format: { durationMs } });
      const pitch = await first(b);
      expect(pitch.shots.reduce((sum, s) => sum + s.durationMs, 0)).toBe(durationMs);
      expect(pitch.estimatedCredits).toBe(Math.ceil(durationMs / 1000));
    }
  });
});

describe('the built-in writer: each change told by its own words', () => {
  const exports = brief({
    intent: 'Show off the faster exports in 2.4',
    context: 'Exports now stream frames straight into the encoder, so a 10 second clip renders in half the time. A progress bar shows where the render is.',
    code: [
      codeFile('src/export/encoder.ts', {
        score: 0.9, additions: 40, deletions: 22,
        patch: '@@ -1,4 +1,4 @@\n-export function encodeAll(frames: Frame[]) {\n+export function streamFrames(frames: AsyncIterable<Frame>, encoder: Encoder) {\n+  for await (const frame of frames) encoder.write(frame);\n }',
      }),
      codeFile('src/export/progress.ts', {
        status: 'added', score: 0.7, additions: 30, deletions: 0,
        patch: '@@ -0,0 +1,3 @@\n+export class ProgressReporter {\n+  report(done: number, total: number) {}\n+}',
      }),
    ],
    format: { template: 'changelog', durationMs: 10_000 },
    brand: { name: 'Acme' },
  });

  it('gives each code shot the title, caption and line of its own file: the names its patch adds, renames or removes', async () => {
    const pitch = await first(exports);
    const [encoder, progress] = ['src/export/encoder.ts', 'src/export/progress.ts'].map((path) => pitch.shots.find((s) => s.codePaths[0] === path));
    if (!encoder || !progress) throw new Error('a change has no shot');
    expect(encoder.title).toMatch(/encoder/i);
    expect(encoder.text).toBe('Renames encodeAll to streamFrames');
    expect(encoder.voiceover).toMatch(/encode all .*stream frames/i);
    expect(progress.title).toMatch(/progress/i);
    expect(progress.text).toBe('Adds ProgressReporter');
    expect(progress.voiceover).toMatch(/progress reporter/i);
  });

  it('takes a change\'s digest first, and never gives two shots the same caption or line', async () => {
    const digested = brief({
      ...exports,
      code: exports.code.map((file, i) => ({ ...file, digest: i === 0 ? 'Frames stream straight into the encoder. Renders take half the time.' : 'A progress reporter tells where the render is.' })),
    });
    const pitch = await first(digested);
    const code = pitch.shots.filter((s) => s.codePaths.length);
    expect(code.map((s) => s.text)).toEqual(['Frames stream straight into the encoder.', 'A progress reporter tells where the render is.']);
    const shared = brief({ ...exports, code: exports.code.map((file) => ({ ...file, patch: null, digest: null })) });
    const { shots } = await first(shared);
    for (const field of ['text', 'voiceover'] as const) {
      const said = shots.flatMap((s) => (s[field] ? [s[field].toLowerCase()] : []));
      expect(new Set(said).size).toBe(said.length);
    }
  });

  it('sums the video up as the viewer will see and feel it, not as the writer chose', async () => {
    const { summary } = await first(exports);
    expect(summary).toMatch(/^A 10-second tour of what is new in the faster exports in 2\.4\. On screen: Export encoder and Export progress\. /);
    expect(summary).toMatch(/ending on “Try it today with Acme”\.$/);
    expect(summary).not.toMatch(/key sentence|ranked by|score|media item|most important first/i);
  });

  it('names the product without the verb that announces it', async () => {
    const launch = brief({ intent: 'Launch Acme Review: approve videos from your inbox in one click', media: [image('inbox', 'Inbox view')], format: { template: 'launch', durationMs: 15_000, aspect: '9:16' } });
    const pitch = await first(launch);
    expect(words(pitch)).not.toMatch(/launch acme review/i);
    expect(pitch.shots.map((s) => s.title)).toContain('Meet Acme Review');
  });
});

describe('the built-in writer: the skip verdict', () => {
  it.each([
    ['only lockfiles', [codeFile('pnpm-lock.yaml'), codeFile('ios/Podfile.lock'), codeFile('go.sum')], /lockfiles/],
    ['only generated files', [codeFile('dist/index.js'), codeFile('web/vendor.min.js'), codeFile('src/app.js.map'), codeFile('src/__snapshots__/app.test.ts.snap'), codeFile('vendor/github.com/x/y.go')], /generated files/],
    ['only whitespace changes', [codeFile('src/total.ts', { patch: whitespacePatch() })], /whitespace-only/],
  ])('skips a brief with %s and no media or context', async (_, code, reason) => {
    const b = brief({ code });
    const pitch = await first(b);
    expect(pitch.verdict).toBe('skip');
    expect(pitch.verdictReason).toMatch(reason);
    expect(validatePitchFor(b, pitch)).toEqual([]);
    expect(pitch.shots).toHaveLength(1);
  });

  it('still stores a valid pitch for the longest videos (two shots under a minute each)', async () => {
    const b = brief({ code: [codeFile('yarn.lock')], format: { durationMs: 120_000 } });
    const pitch = await first(b);
    expect(pitch.verdict).toBe('skip');
    expect(pitch.shots.map((s) => s.durationMs)).toEqual([60_000, 60_000]);
  });

  it('does not skip when media or context give it something to show', async () => {
    const noise = [codeFile('pnpm-lock.yaml')];
    expect((await first(brief({ code: noise, media: [image('hero', 'Dashboard')] }))).verdict).toBe('video');
    expect((await first(brief({ code: noise, context: 'Invoices now export to CSV.' }))).verdict).toBe('video');
  });

  it('does not skip a real change hidden among noise, nor a brief with no code at all', async () => {
    expect((await first(brief({ code: [codeFile('pnpm-lock.yaml'), codeFile('src/total.ts', { patch: '@@ -1 +1 @@\n-return a;\n+return a + tax;' })] }))).verdict).toBe('video');
    expect((await first(brief({ intent: 'Celebrate our tenth birthday' }))).verdict).toBe('video');
  });
});

describe('the built-in writer: brand, sound and templates', () => {
  it('lets the brand tone show in the words, and the brand name in the title and the call to action', async () => {
    const playful = await first(brief({ ...release, brand: { name: 'Ledgerly', tone: 'playful, cheeky' } }));
    const formal = await first(brief({ ...release, brand: { name: 'Ledgerly', tone: 'formal and precise' } }));
    expect(playful.title).toContain('Ledgerly');
    expect(playful.shots.at(-1)?.text).toContain('Ledgerly');
    expect(words(playful)).toMatch(/glow-up|take it for a spin/i);
    expect(words(formal)).toMatch(/has been updated|available now/i);
    expect(words(formal)).not.toMatch(/glow-up|take it for a spin/i);
  });

  it('writes voiceover lines only when voiceover is on, and music direction only when music is on', async () => {
    const on = await first(release);
    expect(on.shots.every((s) => s.voiceover)).toBe(true);
    expect(on.music).toBeTruthy();
    const off = await first(brief({ ...release, format: { ...release.format, sound: { voiceover: false, music: false, sfx: false } } }));
    expect(off.shots.every((s) => s.voiceover === null)).toBe(true);
    expect(off.music).toBeNull();
  });

  it('refers to the brief\'s media in the shots', async () => {
    const b = brief({ ...release, template: undefined, media: [image('hero', 'Invoice export screen'), video('demo', 'Export demo')] } as never);
    const ids = (await first(b)).shots.flatMap((s) => s.mediaIds);
    expect(ids.sort()).toEqual(['demo', 'hero']);
  });

  it('builds a custom video on the key sentences of the context', async () => {
    const context = [
      'Our support team answers every ticket within an hour.',
      'Weather was nice on the day we moved offices.',
      'Tickets are now routed to the right expert automatically, which halves the answer time.',
      'Customers rate support 4.9 out of 5.',
    ].join(' ');
    const pitch = await first(brief({ intent: 'Explain how fast our support answers tickets', context, format: { template: 'custom', durationMs: 12_000 } }));
    const shown = pitch.shots.map((s) => s.text ?? '').join('\n');
    expect(shown).toContain('Tickets are now routed to the right expert automatically');
    expect(shown).not.toContain('Weather was nice');
  });

  it('shapes a launch around why it matters and a reveal of the hero media', async () => {
    const b = brief({
      intent: 'Announce Ledgerly Mobile', context: 'Finance teams work on the go. Approve invoices from your phone.',
      media: [image('hero', 'Ledgerly Mobile home screen')], format: { template: 'launch', durationMs: 12_000 },
    });
    const titles = (await first(b)).shots.map((s) => s.title);
    expect(titles[1]).toMatch(/^Why it matters/);
    expect(titles[2]).toBe('Meet Ledgerly Mobile');
  });

  it('groups a digest by area of the code', async () => {
    const b = brief({
      code: [codeFile('src/billing/a.ts'), codeFile('src/billing/b.ts'), codeFile('src/auth/login.ts')],
      format: { template: 'digest', durationMs: 12_000 },
    });
    const titles = (await first(b)).shots.map((s) => s.title);
    expect(titles).toContain('Billing: 2 changes');
    expect(titles).toContain('Auth: 1 change');
  });

  it('gives the same pitch for the same input, apart from createdAt', async () => {
    const a = await createBuiltinWriter({ now: () => new Date('2026-01-01T00:00:00Z') }).write({ brief: release, version: 1, previous: null, comments: [] });
    const b = await createBuiltinWriter({ now: () => new Date('2027-06-01T00:00:00Z') }).write({ brief: release, version: 1, previous: null, comments: [] });
    expect({ ...a, createdAt: null }).toEqual({ ...b, createdAt: null });
    expect(a.createdAt).not.toBe(b.createdAt);
  });

  it('clips every text to its bound without cutting a character in half', async () => {
    const emoji = '👨‍👩‍👧🇫🇷😀'.repeat(700);
    // Cut at the bound by code units, as a client might; a pair cut in half is no text (the spec refuses it), so it goes whole.
    const upTo = (units: number) => emoji.slice(0, units).replace(/\p{Cs}$/u, '');
    const b = brief({ intent: upTo(1999), context: `${emoji}. ${emoji}.`, brand: { name: '😀'.repeat(120) }, media: [image('m', '🇫🇷'.repeat(100), upTo(499))] });
    const pitch = await first(b);
    expect(validatePitchFor(b, pitch)).toEqual([]);
    for (const text of [pitch.title, pitch.summary, ...pitch.shots.flatMap((s) => [s.title, s.visual, s.text, s.voiceover])]) {
      expect(text ?? '').not.toMatch(/\p{Cs}/u);
    }
    expect(Array.from(pitch.title).length).toBeLessThanOrEqual(160);
  });
});

describe('the built-in writer: revisions answer the comment', () => {
  it('"shorter" gives fewer shots of the same total length, and the summary says so', async () => {
    const [v1, v2] = await revise(release, 'Too long, make it shorter');
    expect(v2!.shots.length).toBeLessThan(v1!.shots.length);
    expect(v2!.shots.reduce((sum, s) => sum + s.durationMs, 0)).toBe(15_000);
    expect(v2!.summary).toMatch(/^In answer to “Too long, make it shorter”: \d+ shots became \d+/);
  });

  it('"drop the intro" drops it and keeps it dropped in later versions', async () => {
    const [v1, v2, v3] = await revise(release, 'Please drop the intro', 'More playful!');
    expect(v1!.shots[0]?.beat).toMatch(/^Hook/);
    expect(v2!.shots[0]?.beat).not.toMatch(/^Hook/);
    expect(v2!.summary).toMatch(/the intro is gone/i);
    expect(v3!.shots[0]?.beat).not.toMatch(/^Hook/);
    expect(v3!.summary).toMatch(/more playful/);
  });

  it('"mention X" puts X first, using what the context says about it', async () => {
    const b = brief({ ...release, context: 'Dark mode arrives next month for every plan.' });
    const [, v2] = await revise(b, 'Can you mention dark mode?');
    const lead = v2!.shots.find((s) => s.beat?.startsWith('Spotlight'));
    expect(lead?.text).toContain('Dark mode arrives next month');
    expect(v2!.shots.indexOf(lead!)).toBeLessThanOrEqual(1);
    expect(v2!.summary).toMatch(/“dark mode” now leads/);
  });

  it('"more formal" changes the wording', async () => {
    const [v1, v2] = await revise(brief({ ...release, brand: { tone: 'playful' } }), 'more formal please');
    expect(words(v1!)).toMatch(/glow-up/i);
    expect(words(v2!)).not.toMatch(/glow-up/i);
    expect(v2!.summary).toMatch(/more formal/);
  });

  it('"no voiceover" removes every voiceover line', async () => {
    const [, v2] = await revise(release, 'No voiceover text, thanks');
    expect(v2!.shots.every((s) => s.voiceover === null)).toBe(true);
  });

  it('acknowledges a comment it cannot act on instead of pretending', async () => {
    const [v1, v2] = await revise(release, 'I love the colours');
    expect(v2!.summary).toMatch(/^In answer to “I love the colours”: .*no change/i);
    expect(v2!.shots.map((s) => s.title)).toEqual(v1!.shots.map((s) => s.title));
  });
});
