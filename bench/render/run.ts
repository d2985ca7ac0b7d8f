/**
 * Renders a 10 s 1080p changelog (code, pictures, sound) and, in the same run, has ffmpeg
 * encode as many 1080p frames from a synthetic source with the same x264 settings: the
 * encoder's limit. Prints wall time, realtime factor, peak memory and the ratio. The renders
 * follow the self-check render a render worker does as it starts, as in production.
 *
 *   pnpm tsx bench/render/run.ts [--runs 3]
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  composeProduction, frameCount, publicMediaFetcher, renderComposition, RGB_TO_BT709, selfCheckRender, X264, x264Args,
} from '@vp/render';
import { changelog, serveMedia } from './fixtures.ts';
import { sampleProcesses } from './memory.ts';

const GOALS = { realtime: 2, ofEncoderLimit: 0.7, peakBytes: 600 * 1024 * 1024 };
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 1;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const verdict = (ok: boolean) => (ok ? 'yes' : 'NO');

/**
 * ffmpeg encoding `frames` frames of testsrc2 at 1080p with the renderer's settings, from RGBA
 * as the renderer draws them, so the conversion to BT.709 YUV is on both sides (ffmpeg's own
 * here, the renderer's in node). `fromYuv` leaves the conversion out, for comparison only.
 */
async function encoderLimit(frames: number, keyframesMs: number[], dir: string, fromYuv = false) {
  const sampler = sampleProcesses();
  const started = performance.now();
  const [source, ...conversion] = fromYuv
    ? ['testsrc2=size=1920x1080:rate=30,format=yuv420p']
    : ['testsrc2=size=1920x1080:rate=30,format=rgba', '-vf', RGB_TO_BT709];
  await promisify(execFile)('ffmpeg', [
    '-v', 'error', '-y', '-f', 'lavfi', '-i', source!, '-frames:v', String(frames),
    ...conversion, ...x264Args(keyframesMs), '-an', join(dir, 'encoder-limit.mp4'),
  ]);
  return { wallMs: performance.now() - started, ...sampler.stop() };
}

const dir = await mkdtemp(join(tmpdir(), 'vp-bench-render-'));
const media = await serveMedia(dir);
try {
  const { brief, pitch } = await changelog(media.url);
  const composition = composeProduction({ brief, pitch });
  const frames = frameCount(composition.durationMs);
  const keyframes = composition.scenes.map((scene) => Math.round(scene.startMs + scene.durationMs / 2));
  console.log(`${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(`video: ${composition.width}x${composition.height}, ${s(composition.durationMs)}, ${frames} frames, ${composition.scenes.length} scenes; x264 ${X264.preset} crf ${X264.crf}`);
  // What the render worker does once before it takes work (services/render-worker/src/main.ts).
  const selfCheckStarted = performance.now();
  await selfCheckRender(dir);
  console.log(`self-check render ${s(performance.now() - selfCheckStarted)}  (once, before the runs, as a render worker starts)`);

  for (let run = 1; run <= runs; run++) {
    // The encoder's limit is measured right before and after the render and averaged, so a
    // change in the machine's load during the run weighs on both sides alike.
    const before = await encoderLimit(frames, keyframes, dir);
    const sampler = sampleProcesses();
    const started = performance.now();
    const result = await renderComposition(composition, {
      outFile: join(dir, 'changelog.mp4'), workDir: dir, fetchMedia: publicMediaFetcher({ allowPrivate: true }),
    });
    const wallMs = performance.now() - started;
    const { peak, cpu } = sampler.stop();
    const after = await encoderLimit(frames, keyframes, dir);
    const fromYuv = await encoderLimit(frames, keyframes, dir, true);
    const limitMs = (before.wallMs + after.wallMs) / 2;

    const realtime = composition.durationMs / wallMs;
    const ofLimit = limitMs / wallMs;
    console.log(`\nrun ${run}/${runs}`);
    console.log(`  render           ${s(wallMs)}  (${Object.entries(result.timings).map(([phase, ms]) => `${phase} ${s(ms)}`).join(', ')})`);
    console.log(`  realtime factor  ${realtime.toFixed(2)}x                goal >= ${GOALS.realtime}x: ${verdict(realtime >= GOALS.realtime)}`);
    console.log(`  encoder's limit  ${s(limitMs)}  (${s(before.wallMs)} before, ${s(after.wallMs)} after; ${(frames / (limitMs / 1000)).toFixed(0)} fps)`);
    console.log(`  of the limit     ${(ofLimit * 100).toFixed(0)}%                 goal >= ${GOALS.ofEncoderLimit * 100}%: ${verdict(ofLimit >= GOALS.ofEncoderLimit)}`);
    console.log(`  peak memory      ${mb(peak.total)} (node ${mb(peak.node)}, children ${mb(peak.children)})  goal < ${mb(GOALS.peakBytes)}: ${verdict(peak.total < GOALS.peakBytes)}`);
    console.log(`  CPU time         render: node ${cpu.node.toFixed(2)} s + children ${cpu.children.toFixed(2)} s; encoder alone ${((before.cpu.children + after.cpu.children) / 2).toFixed(2)} s`);
    console.log(`  encoder alone    peak ${mb(Math.max(before.peak.children, after.peak.children))}; output ${mb(result.bytes)}`);
    console.log(`  from yuv420p     ${s(fromYuv.wallMs)}  (the encoder alone without the conversion: the render is ${((fromYuv.wallMs / wallMs) * 100).toFixed(0)}% of it)`);
  }
} finally {
  await media.close();
  await rm(dir, { recursive: true, force: true });
}
