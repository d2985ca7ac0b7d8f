import { Brief, Pitch, type BriefInput, type Shot } from '@vp/contracts';

const SOURCE = Array.from({ length: 90 }, (_, i) => {
  if (i === 60) return '  const timeoutMs = options.timeoutMs ?? 30_000;';
  if (i % 10 === 0) return `export function step${i}(input: string): number {`;
  if (i % 10 === 9) return '}';
  return `  return input.length + ${i}; // keeps "step ${i}" honest`;
}).join('\n');

export const CODE_FILE = {
  path: 'src/net/fetch.ts',
  source: SOURCE,
  status: 'modified' as const,
  additions: 1,
  deletions: 1,
  patch: [
    '@@ -59,5 +59,5 @@',
    '   return input.length + 58; // keeps "step 58" honest',
    ' }',
    '-  const timeoutMs = 10_000;',
    '+  const timeoutMs = options.timeoutMs ?? 30_000;',
    ' export function step61(input: string): number {',
  ].join('\n'),
};

/** A brief with every kind of scene: title, code, pictures (one animated) and videos, a statement, an end card. */
export function sampleBrief(url: (path: string) => string, format: BriefInput['format'] = {}): Brief {
  return Brief.parse({
    intent: 'Announce release 2.4',
    media: [
      { id: 'dashboard', kind: 'image', url: url('/dashboard.png'), name: 'Dashboard' },
      { id: 'chart', kind: 'image', url: url('/chart.jpg'), name: 'Chart' },
      { id: 'clip', kind: 'video', url: url('/clip.mp4'), name: 'Walkthrough' },
      { id: 'portrait', kind: 'video', url: url('/portrait-clip.mp4'), name: 'Phone recording' },
      { id: 'demo', kind: 'image', url: url('/demo.gif'), name: 'Demo' },
    ],
    code: [CODE_FILE],
    format,
    brand: { name: 'Acme', primaryColor: '#ff5a36', backgroundColor: '#101522', logoUrl: url('/logo.png'), fontFamily: 'Noto Sans' },
  });
}

type ShotInput = Partial<Shot> & Pick<Shot, 'title' | 'durationMs'>;

export function samplePitch(shots: ShotInput[]): Pitch {
  return Pitch.parse({
    version: 1,
    title: 'Release 2.4',
    summary: 'What is new in release 2.4.',
    estimatedCredits: Math.ceil(shots.reduce((sum, s) => sum + s.durationMs, 0) / 1000),
    createdAt: new Date().toISOString(),
    music: 'A light synth bed, building to the end card.',
    shots: shots.map((shot, index) => ({ index, visual: shot.title, ...shot })),
  });
}

/** Five seconds: a title, a code scene, a picture scene, an end card. */
export function shortPitch(media: string[] = ['dashboard']): Pitch {
  return samplePitch([
    { title: 'Release 2.4 is here', durationMs: 1100, text: 'Faster, safer fetching', voiceover: 'Release two point four.' },
    { title: 'Configurable timeouts', durationMs: 1500, codePaths: [CODE_FILE.path], voiceover: 'Timeouts are configurable.' },
    { title: 'A new dashboard', durationMs: 1400, mediaIds: media, text: 'Every render at a glance', voiceover: 'A new dashboard.' },
    { title: 'Try it today', durationMs: 1000, text: 'acme.dev' },
  ]);
}

/** Half of a surrogate pair on its own: what a cut through an emoji leaves, and draws as a box. */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
