import { ASPECTS, TEMPLATES, unstorableText, type BriefInput } from '@vp/contracts';
import fc from 'fast-check';

/** Awkward pieces of text: accents, combining marks, emoji sequences, flags, right-to-left, whitespace. */
const PIECES = ['word ', 'Émilie ', 'e\u0301', '😀', '👨‍👩‍👧', '🇫🇷', 'ﷺ', 'שלום ', '日本語', '\n', '. ', '! ', '  ', '\t', 'x', 'and so on… '];

const cut = (max: number) => (text: string) => Array.from(text).slice(0, max).join('');

/** Text of `min` to `max` characters (code points, as the schema counts), sometimes right at the bound; storable (no NUL, no lone surrogate), as the spec allows. */
export function text(max: number, min = 0): fc.Arbitrary<string> {
  const short = Math.min(max, 40);
  return fc.oneof(
    { weight: 4, arbitrary: fc.string({ unit: 'grapheme', minLength: min, maxLength: short }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: min, maxLength: short }) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 6 }), fc.constantFrom(max, Math.ceil(max / 2), Math.max(min, 1)))
        .map(([pieces, length]) => {
          const unit = pieces.join('');
          return unit.repeat(Math.ceil(length / unit.length) + 1);
        }),
    },
  ).map(cut(max)).filter((s) => Array.from(s).length >= min && unstorableText(s) === null);
}

const sentence = fc
  .array(fc.constantFrom('billing', 'invoices', 'export', 'faster', 'dashboard', 'we', 'now', 'the', 'teams', 'dark', 'mode', 'cache', '2.3', 'émoji', '🚀'), { minLength: 1, maxLength: 14 })
  .map((words) => `${words.join(' ')}.`);
const prose = fc.array(sentence, { maxLength: 40 }).map((s) => s.join(' '));

const NOISE = ['pnpm-lock.yaml', 'package-lock.json', 'Cargo.lock', 'dist/app.js', 'web/app.min.js', 'src/app.js.map', 'src/__snapshots__/a.snap', 'vendor/lib/x.go'];
const path = fc.oneof(
  fc.constantFrom(...NOISE),
  fc.tuple(fc.constantFrom('src', 'lib', 'packages/billing', 'apps/web/src', ''), text(40, 1)).map(([dir, name]) => cut(500)(dir ? `${dir}/${name}` : name)),
  text(500, 1),
);

const patch = fc.oneof(
  fc.array(fc.tuple(fc.constantFrom('+', '-', ' ', '\\'), text(80)), { maxLength: 30 })
    .map((lines) => `@@ -1,3 +1,3 @@\n${lines.map(([sign, line]) => sign + line.replace(/\n/g, ' ')).join('\n')}`),
  text(60).map((line) => `@@ -1 +1 @@\n-${line}\n+  ${line}\t`),
  text(20_000),
);

const codeFile = fc.record({
  path,
  source: fc.oneof({ weight: 5, arbitrary: text(200) }, { weight: 1, arbitrary: text(200_000) }),
  status: fc.option(fc.constantFrom('added', 'modified', 'removed', 'renamed'), { nil: null }),
  additions: fc.nat({ max: 100_000 }),
  deletions: fc.nat({ max: 100_000 }),
  patch: fc.option(patch, { nil: null }),
  digest: fc.option(fc.oneof(prose.map(cut(1500)), text(1500)), { nil: null }),
  score: fc.double({ min: 0, max: 1, noNaN: true }),
  sourceOmitted: fc.boolean(),
});

const media = fc.record({
  id: fc.oneof(fc.constantFrom('hero', 'demo', 'shot-1'), text(80, 1)),
  kind: fc.constantFrom('image', 'video'),
  url: fc.webUrl(),
  name: text(200, 1),
  description: fc.option(text(500), { nil: null }),
});

const tone = fc.oneof(fc.constantFrom('playful and warm', 'formal, precise', 'bold but professional', 'calm'), text(300));

/** Any brief the spec allows: every template, aspect and sound switch, up to every bound. */
export const anyBrief: fc.Arbitrary<BriefInput> = fc.record({
  intent: fc.oneof(sentence, text(2000, 1)),
  context: fc.option(fc.oneof(prose, text(60_000)), { nil: null }),
  media: fc.array(media, { maxLength: 20, size: 'medium' }),
  code: fc.array(codeFile, { maxLength: 40, size: 'medium' }),
  format: fc.record({
    template: fc.constantFrom(...TEMPLATES),
    durationMs: fc.oneof(fc.constantFrom(5000, 5001, 7499, 60_000, 60_001, 119_999, 120_000), fc.integer({ min: 5000, max: 120_000 })),
    aspect: fc.constantFrom(...ASPECTS),
    sound: fc.record({ voiceover: fc.boolean(), music: fc.boolean(), sfx: fc.boolean() }),
  }),
  brand: fc.record({
    name: fc.option(text(120), { nil: null }),
    logoUrl: fc.option(fc.webUrl(), { nil: null }),
    primaryColor: fc.option(text(32), { nil: null }),
    backgroundColor: fc.option(text(32), { nil: null }),
    fontFamily: fc.option(text(120), { nil: null }),
    tone: fc.option(tone, { nil: null }),
  }),
});

/** An intent that announces a product by name with a verb of its own, and perhaps a claim after a colon. */
export const ANNOUNCING = ['Launch', 'Launching', 'Introduce', 'Introducing', 'Ship', 'Announce', 'Unveil', 'Meet', 'Roll out', 'Show off', 'Present', 'Debut'];
export const announcingBrief: fc.Arbitrary<{ input: BriefInput; verb: string; product: string }> = fc
  .tuple(anyBrief, fc.constantFrom(...ANNOUNCING), fc.constantFrom('Acme Review', 'Ledgerly Mobile', 'Dark mode', 'Billing 2.0', 'Pulse'), fc.option(fc.constantFrom('approve videos from your inbox in one click', 'invoices on the go'), { nil: null }))
  .map(([input, verb, product, claim]) => ({ input: { ...input, intent: `${verb} ${product}${claim ? `: ${claim}` : ''}` }, verb, product }));

/** Code changes no viewer would notice: lockfiles, generated files, whitespace-only edits. */
const noiseFile = fc.oneof(
  fc.tuple(codeFile, fc.constantFrom(...NOISE)).map(([file, path]) => ({ ...file, path })),
  fc.tuple(codeFile, text(60)).map(([file, raw]) => {
    const line = raw.replace(/\n/g, ' ');
    return { ...file, path: cut(500)(`src/${file.path}`), patch: `@@ -1 +1 @@\n-${line}\n+  ${line}\t` };
  }),
);

/** A brief whose only content is such noise: no media, no context. */
export const noiseOnlyBrief: fc.Arbitrary<BriefInput> = fc
  .tuple(anyBrief, fc.array(noiseFile, { minLength: 1, maxLength: 40 }), fc.constantFrom(null, '', '  \n'))
  .map(([input, code, context]) => ({ ...input, media: [], context, code }));

const directive = fc.constantFrom(
  'Make it shorter', 'fewer shots please', 'Drop the intro', 'no outro', 'bring back the intro', 'more playful!', 'More formal please.',
  'No voiceover text', 'no music', 'no on-screen text', 'Mention dark mode', 'focus on the billing export', 'call it "Billing, reborn"',
  "Don't drop the outro", 'more detail',
);

/** A history of comments, each one answered by a new version. */
export const anyComments: fc.Arbitrary<string[]> = fc.array(
  fc.oneof(directive, fc.array(directive, { minLength: 2, maxLength: 3 }).map((d) => d.join('. ')), text(4000, 1)),
  { maxLength: 4 },
);
