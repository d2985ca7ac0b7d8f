import { probe } from '../probe.ts';
import { run } from '../process.ts';

/** A stretch of a video in which no frame differs from the first one of it. */
export type StillRun = { startMs: number; endMs: number; durationMs: number };

/**
 * Every stretch of at least `minMs` in which the picture does not change, as ffmpeg's
 * `freezedetect` finds them: a frame counts as the same as the stretch's first while their mean
 * absolute difference stays under `noiseDb` (-60 dB, ffmpeg's default: 0.1% of full scale). A
 * stretch still running when the video ends ends with it.
 */
export async function stillRuns(file: string, options: { minMs?: number; noiseDb?: number; signal?: AbortSignal } = {}): Promise<StillRun[]> {
  const minMs = options.minMs ?? 300;
  const filter = `freezedetect=n=${options.noiseDb ?? -60}dB:d=${(minMs / 1000).toFixed(3)},metadata=mode=print:file=-`;
  const [output, info] = await Promise.all([
    run('ffmpeg', ['-v', 'error', '-i', file, '-an', '-vf', filter, '-f', 'null', '-'], { signal: options.signal, failure: 'The video could not be read' }),
    probe(file),
  ]);
  const endOfVideo = Number(info.format.duration) * 1000;
  const runs: StillRun[] = [];
  let start: number | null = null;
  for (const [, key, value] of output.toString().matchAll(/lavfi\.freezedetect\.freeze_(start|end)=([\d.]+)/g)) {
    const ms = Math.round(Number(value) * 1000);
    if (key === 'start') start = ms;
    else if (start !== null) {
      runs.push({ startMs: start, endMs: ms, durationMs: ms - start });
      start = null;
    }
  }
  if (start !== null) runs.push({ startMs: start, endMs: Math.round(endOfVideo), durationMs: Math.round(endOfVideo) - start });
  return runs;
}
