import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Composition } from '../composition/schema.ts';
import { run } from '../process.ts';
import { measureLoudness, normaliseLoudness } from './loudness.ts';
import { dbToGain, SAMPLE_RATE, StereoTrack } from './pcm.ts';
import { impact, musicBed, whoosh, WHOOSH_PEAK } from './synth.ts';
import { speak } from './voice.ts';

/** Voice lines end this long before the next line starts (or the video ends), so two never overlap. */
const VOICE_TAIL_MS = 150;

export interface Stems {
  voice: StereoTrack | null;
  music: StereoTrack | null;
  sfx: StereoTrack | null;
}

/** Voiceover lines spoken ahead of the mix, keyed by their index in the audio plan. */
export type SpokenLines = Float32Array[];

/**
 * Speaks every voiceover line (espeak-ng), each fitted to the room it has: until the next
 * line starts, or the video ends. A shot cut in two (code, then its pictures) is one line.
 */
export function speakLines(composition: Composition, signal?: AbortSignal): Promise<SpokenLines> {
  const scenes = new Map(composition.scenes.map((scene) => [scene.id, scene]));
  const starts = composition.audio.voiceover.map((line) => (scenes.get(line.sceneId)?.startMs ?? 0) + line.offsetMs);
  return Promise.all(composition.audio.voiceover.map((line, i) => {
    const start = starts[i] ?? 0;
    const next = Math.min(composition.durationMs, ...starts.filter((other) => other > start));
    return speak(line, Math.max(300, next - start - VOICE_TAIL_MS), signal);
  }));
}

/**
 * The three stems of the soundtrack, each exactly the video's length: the voiceover placed
 * on its scenes, the music bed, the effects on the transitions. A stem that is off is null.
 */
export function buildStems(composition: Composition, spoken: SpokenLines, durationSeconds: number): Stems {
  const frames = Math.round(durationSeconds * SAMPLE_RATE);
  const { audio } = composition;
  const scenes = new Map(composition.scenes.map((scene) => [scene.id, scene]));
  const at = (sceneId: string, offsetMs: number) => Math.round((((scenes.get(sceneId)?.startMs ?? 0) + offsetMs) / 1000) * SAMPLE_RATE);

  let voice: StereoTrack | null = null;
  if (audio.voiceover.length) {
    voice = new StereoTrack(frames);
    for (const [i, line] of audio.voiceover.entries()) voice.addMono(spoken[i] ?? new Float32Array(), at(line.sceneId, line.offsetMs));
  }

  let music: StereoTrack | null = null;
  if (audio.music) {
    music = new StereoTrack(frames);
    const bed = musicBed(audio.music, frames);
    const gain = dbToGain(audio.music.gainDb);
    for (let i = 0; i < bed.length; i++) music.data[i] = (bed[i] ?? 0) * gain;
  }

  let sfx: StereoTrack | null = null;
  if (audio.sfx.length) {
    const track = new StereoTrack(frames);
    audio.sfx.forEach((effect, n) => {
      const sound = effect.kind === 'whoosh' ? whoosh(n + 1) : impact(n + 1);
      // A whoosh's loudest moment goes on the cue (the sound is stereo: two samples a frame).
      const soundFrames = sound.length / 2;
      const lead = effect.kind === 'whoosh' ? WHOOSH_PEAK * soundFrames : 0;
      addStereo(track, sound, at(effect.sceneId, effect.offsetMs) - Math.round(lead), dbToGain(effect.gainDb));
    });
    sfx = track;
  }
  return { voice, music, sfx };
}

function addStereo(track: StereoTrack, sound: Float32Array, at: number, gain: number): void {
  for (let i = 0; i < sound.length / 2; i++) {
    const frame = at + i;
    if (frame < 0) continue;
    if (frame >= track.frames) break;
    track.data[2 * frame] = (track.data[2 * frame] ?? 0) + (sound[2 * i] ?? 0) * gain;
    track.data[2 * frame + 1] = (track.data[2 * frame + 1] ?? 0) + (sound[2 * i + 1] ?? 0) * gain;
  }
}

/**
 * Mixes the stems with ffmpeg into AAC: the music ducks under the voice (sidechain
 * compression), then the mix is brought to the target loudness (EBU R128): measured in a first
 * pass, then one gain and a peak limiter in the second. Effects alone are only limited, so a
 * few whooshes are not pumped up to speech level. With every stem off, the track is silent
 * AAC: players and the review always find an audio stream.
 *
 * With `videoFile`, the same ffmpeg puts the soundtrack beside that video's stream, copied as
 * it is, in an MP4 with its index up front for streaming: no separate mux, and one file
 * written instead of two.
 */
export async function mixStems(stems: Stems, options: {
  dir: string; durationSeconds: number; loudnessLufs: number; outFile: string; videoFile?: string; signal?: AbortSignal;
}): Promise<void> {
  const { dir, durationSeconds, loudnessLufs, outFile, videoFile, signal } = options;
  const inputs: string[] = [];
  const chains: string[] = [];
  const labels: Partial<Record<keyof Stems, string>> = {};
  for (const name of ['voice', 'music', 'sfx'] as const) {
    const stem = stems[name];
    if (!stem) continue;
    const file = join(dir, `${name}.f32`);
    await writeFile(file, stem.toBuffer());
    // Raw samples carry no channel layout: name it, or filters cannot agree on one.
    chains.push(`[${Object.keys(labels).length}:a]aformat=channel_layouts=stereo[${name}]`);
    labels[name] = `[${name}]`;
    inputs.push('-f', 'f32le', '-ar', String(SAMPLE_RATE), '-ac', '2', '-i', file);
  }
  const mixed: string[] = [];
  if (labels.voice && labels.music) {
    chains.push(`${labels.voice}asplit=2[spoken][key]`, `${labels.music}[key]sidechaincompress=threshold=0.02:ratio=6:attack=20:release=400[bed]`);
    mixed.push('[spoken]', '[bed]');
  } else {
    if (labels.voice) mixed.push(labels.voice);
    if (labels.music) mixed.push(labels.music);
  }
  if (labels.sfx) mixed.push(labels.sfx);
  let graph: string;
  if (mixed.length) {
    const mix = [...chains, `${mixed.join('')}amix=inputs=${mixed.length}:normalize=0`].join(';');
    const finish = labels.voice || labels.music
      ? normaliseLoudness(await measureLoudness(inputs, mix, signal), loudnessLufs)
      : 'alimiter=limit=0.7:level=false:latency=true';
    graph = `${mix},${finish},apad[out]`;
  } else {
    inputs.push('-f', 'lavfi', '-i', `anullsrc=r=${SAMPLE_RATE}:cl=stereo`);
    graph = '[0:a]anull[out]';
  }
  // The video goes in last, so the stems keep their input numbers in the graph.
  const video = videoFile ? { input: ['-i', videoFile], output: ['-map', `${inputs.filter((arg) => arg === '-i').length}:v:0`, '-c:v', 'copy', '-movflags', '+faststart'] } : null;
  // The native AAC encoder's `fast` coder: at 160 kbit/s it sounds at least as good as the
  // default `twoloop`, which is better only at low bitrates, for half the CPU (FFmpeg's authors
  // once made `fast` the default for that reason).
  await run('ffmpeg', [
    '-v', 'error', '-y', ...inputs, ...(video?.input ?? []), '-filter_complex', graph, '-map', '[out]', ...(video?.output ?? []),
    '-t', durationSeconds.toFixed(6), '-c:a', 'aac', '-aac_coder', 'fast', '-b:a', '160k', '-ar', String(SAMPLE_RATE), outFile,
  ], { signal, failure: videoFile ? 'The soundtrack could not be mixed and put with the video' : 'The soundtrack could not be mixed' });
}
