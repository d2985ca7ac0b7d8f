import { Brief, type Aspect, type BriefInput } from '@vp/contracts';

const SOURCE = Array.from({ length: 60 }, (_, i) => {
  if (i === 30) return '  const reporter = createProgressReporter(frames.length);';
  if (i % 10 === 0) return `export function step${i}(input: string): number {`;
  if (i % 10 === 9) return '}';
  return `  return input.length + ${i};`;
}).join('\n');

/**
 * A brief with something of every kind, for tests of the videos the built-in writer's pitches
 * become: a product launched with a claim, three sentences of context, a screenshot and a phone
 * picture, two code changes (one with its source, one a patch alone), a logo and brand colours.
 * `url` gives each medium's address on the renderer's test media server.
 */
export function craftBrief(url: (path: string) => string, format: BriefInput['format'] & { aspect: Aspect }): Brief {
  return Brief.parse({
    intent: 'Launch Acme Review: approve videos from your inbox in one click',
    context: 'Teams waste days chasing approvals. Acme Review puts every cut in your inbox with greenlight, comment and decline buttons. Reviewers never need an account.',
    media: [
      { id: 'inbox', kind: 'image', url: url('/dashboard.png'), name: 'Inbox view', description: 'Every cut waiting for you.' },
      { id: 'phone', kind: 'image', url: url('/phone.webp'), name: 'On the phone', description: null },
    ],
    code: [
      {
        path: 'src/export/progress.ts', source: SOURCE, status: 'modified', additions: 1, deletions: 1, score: 0.9,
        patch: '@@ -29,3 +29,3 @@\n   return input.length + 29;\n-  const reporter = null;\n+  const reporter = createProgressReporter(frames.length);\n }',
      },
      {
        path: 'src/export/encoder.ts', source: '', status: 'modified', additions: 2, deletions: 1, score: 0.7,
        patch: '@@ -1,2 +1,3 @@\n-export function encodeAll(frames: Frame[]) {\n+export function streamFrames(frames: AsyncIterable<Frame>, encoder: Encoder) {\n+  for await (const frame of frames) encoder.write(frame);\n }',
        digest: 'Frames stream straight into the encoder.',
      },
    ],
    format,
    brand: { name: 'Acme', logoUrl: url('/logo.png'), primaryColor: '#ff5a36', backgroundColor: '#101522', tone: 'friendly' },
  });
}
