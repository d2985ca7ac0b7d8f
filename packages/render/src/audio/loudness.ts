import { run } from '../process.ts';
import { dbToGain } from './pcm.ts';

/** The mix's ceiling in dB true peak, as streaming platforms ask (-1 to -2). */
const TRUE_PEAK_DB = -1.5;
/**
 * The limiter holds samples, not the waveform between them, and AAC overshoots a little:
 * samples stay half a decibel lower so that the true peak stays under the ceiling.
 */
const SAMPLE_CEILING_DB = TRUE_PEAK_DB - 0.5;
/** A quiet mix is raised at most this much: a nearly silent one is not turned into noise. */
const MAX_GAIN_DB = 24;
/** ebur128's reading when every block is gated out as silence. */
const SILENT_LUFS = -70;

/**
 * Integrated loudness (EBU R128) of the audio `graph` ends with, in LUFS; null when it is
 * silent. `inputs` are ffmpeg's input options for the graph.
 */
export async function measureLoudness(inputs: string[], graph: string, signal?: AbortSignal): Promise<number | null> {
  const readings = await run('ffmpeg', [
    '-v', 'error', ...inputs,
    '-filter_complex', `${graph},ebur128=metadata=1,ametadata=mode=print:key=lavfi.r128.I:file=-[measured]`,
    '-map', '[measured]', '-f', 'null', '-',
  ], { signal, failure: 'The soundtrack could not be measured' });
  // One reading per 100 ms, each the loudness so far: the last is the whole mix's.
  const last = [...readings.toString().matchAll(/lavfi\.r128\.I=(\S+)/g)].at(-1)?.[1];
  const lufs = Number(last);
  return Number.isFinite(lufs) && lufs > SILENT_LUFS ? lufs : null;
}

/**
 * Filters that bring a mix measured at `measuredLufs` to `targetLufs`: one gain for the whole
 * mix, so its dynamics are kept, then a lookahead limiter (its delay compensated, so the sound
 * stays in sync) for the peaks the gain pushes over the ceiling.
 */
export function normaliseLoudness(measuredLufs: number | null, targetLufs: number): string {
  const gainDb = measuredLufs === null ? 0 : Math.min(MAX_GAIN_DB, targetLufs - measuredLufs);
  return `volume=${gainDb.toFixed(2)}dB,alimiter=limit=${dbToGain(SAMPLE_CEILING_DB).toFixed(4)}:level=false:latency=true`;
}
