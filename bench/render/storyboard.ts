/**
 * The storyboard of the render benchmark's changelog: one still per scene at its key moment,
 * drawn with the renderer's own compositor (no frames between, no encoding). Prints the wall
 * and CPU time of each run (the first in a process pays for what a process does once), beside
 * a render of the same video for scale.
 *
 *   pnpm tsx bench/render/storyboard.ts [--runs 5] [--width 640]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { composeProduction, drawStoryboard, publicMediaFetcher, renderComposition } from '@vp/render';
import { changelog, serveMedia } from './fixtures.ts';

const arg = (name: string, fallback: number) => Number(process.argv[process.argv.indexOf(name) + 1]) || fallback;
const runs = arg('--runs', 5);
const width = arg('--width', 640);
const ms = (value: number) => `${value.toFixed(0)} ms`;

const dir = await mkdtemp(join(tmpdir(), 'vp-bench-storyboard-'));
const media = await serveMedia(dir);
try {
  const { brief, pitch } = await changelog(media.url);
  const composition = composeProduction({ brief, pitch });
  const fetchMedia = publicMediaFetcher({ allowPrivate: true });
  console.log(`${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(`storyboard of ${composition.scenes.length} scenes, stills ${width} px wide (JPEG)`);
  for (let run = 1; run <= runs; run++) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    const stills = await drawStoryboard(composition, { workDir: dir, fetchMedia, width });
    const wall = performance.now() - started;
    const used = process.cpuUsage(cpu);
    const bytes = stills.reduce((sum, still) => sum + still.image.length, 0);
    console.log(`  run ${run}: ${ms(wall)} wall, ${ms((used.user + used.system) / 1000)} CPU; ${stills.length} stills, ${(bytes / 1024).toFixed(0)} KB`);
  }
  const started = performance.now();
  await renderComposition(composition, { outFile: join(dir, 'video.mp4'), workDir: dir, fetchMedia });
  console.log(`  for scale, the render of the same video: ${ms(performance.now() - started)}`);
} finally {
  await media.close();
  await rm(dir, { recursive: true, force: true });
}
