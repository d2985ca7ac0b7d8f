import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Brief, Pitch } from '@vp/contracts';
import { composeProduction } from './composition/compose-production.ts';
import { renderComposition, type RenderResult } from './render.ts';

const SOURCE = [
  'export async function fetchRelease(url: string, timeoutMs = 5_000): Promise<Release> {',
  '  const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });',
  '  if (!response.ok) throw new Error(`GET ${url}: ${response.status}`);',
  '  return (await response.json()) as Release;',
  '}',
];

/**
 * A short production with every part of a render but downloads: a title with a voiceover, an
 * editor showing a TypeScript change, a music bed; 1080p at 16:9, the default format.
 */
function selfCheckComposition() {
  const brief = Brief.parse({
    intent: 'Check that this render worker can render',
    code: [{
      path: 'src/release.ts', source: SOURCE.join('\n'), status: 'added', additions: SOURCE.length, deletions: 0,
      patch: [`@@ -0,0 +1,${SOURCE.length} @@`, ...SOURCE.map((line) => `+${line}`)].join('\n'),
    }],
    format: { durationMs: 5000 },
    brand: { name: 'Self-check' },
  });
  const pitch = Pitch.parse({
    version: 1, title: 'Self-check', summary: 'A render worker checks itself.', estimatedCredits: 5,
    music: 'A light bed.', createdAt: new Date(0).toISOString(),
    shots: [
      { index: 0, title: 'Ready to render', durationMs: 2500, visual: 'Title card', text: 'Ready to render', voiceover: 'Ready.' },
      { index: 1, title: 'The code', durationMs: 2500, visual: 'Editor', codePaths: ['src/release.ts'] },
    ],
  });
  return composeProduction({ brief, pitch });
}

/**
 * Renders a built-in 5 s production in `workDir` and removes it, for a render worker to call
 * before it takes work. A failure says what is wrong on this machine (a font, an ffmpeg
 * that cannot encode, a work folder it cannot write) before any production's tries are spent
 * on it. On success, the renders after it no longer pay for what a process does once: the
 * code grammar's compiling (TypeScript's here), V8 compiling the drawing code, the tools'
 * files coming into the page cache (~0.6 s of a first render on 2 cores).
 */
export async function selfCheckRender(workDir: string): Promise<RenderResult> {
  await mkdir(workDir, { recursive: true });
  const dir = await mkdtemp(join(workDir, 'self-check-'));
  try {
    return await renderComposition(selfCheckComposition(), { outFile: join(dir, 'self-check.mp4'), workDir: dir });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
