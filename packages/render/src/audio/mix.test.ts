import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeProduction } from '../composition/compose-production.ts';
import { COMPOSITION_VERSION, Composition } from '../composition/schema.ts';
import { sampleBrief, shortPitch } from '../testing/fixtures.ts';
import { audioPeak, audioSamples, loudness } from '../testing/inspect.ts';
import { buildStems, mixStems, speakLines, type Stems } from './mix.ts';
import { dbToGain, SAMPLE_RATE, StereoTrack } from './pcm.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vp-mix-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const SECONDS = 3;
const CEILING_DBTP = -1.5;

async function mix(name: string, stems: Partial<Stems>, loudnessLufs = -16, durationSeconds = SECONDS): Promise<string> {
  const outFile = join(dir, `${name}.m4a`);
  await mixStems({ voice: null, music: null, sfx: null, ...stems }, { dir, durationSeconds, loudnessLufs, outFile });
  return outFile;
}

/** A stem of a steady 440 Hz tone at `db` dBFS, with a 10 ms burst of 1 kHz at -14 dBFS if asked. */
function tone(db: number, burstAtSeconds?: number): StereoTrack {
  const track = new StereoTrack(SECONDS * SAMPLE_RATE);
  const samples = Float32Array.from({ length: track.frames }, (_, i) => dbToGain(db) * Math.sin((2 * Math.PI * 440 * i) / SAMPLE_RATE));
  if (burstAtSeconds !== undefined) {
    const at = burstAtSeconds * SAMPLE_RATE;
    for (let i = 0; i < SAMPLE_RATE / 100; i++) samples[at + i] = dbToGain(-14) * Math.sin((2 * Math.PI * 1000 * i) / SAMPLE_RATE);
  }
  track.addMono(samples, 0);
  return track;
}

describe('speakLines', () => {
  const composition = (lines: { sceneId: string; text: string }[]) => Composition.parse({
    version: COMPOSITION_VERSION, title: 'Voice', width: 640, height: 360, fps: 30, durationMs: 6000,
    brand: { name: null, primaryColor: '#ff5a36', backgroundColor: '#101522', textColor: '#ffffff', fontFamily: null, logoUrl: null },
    media: [],
    scenes: ['a', 'b', 'c'].map((id, i) => ({
      id, kind: 'text', startMs: i * 2000, durationMs: 2000, title: id, text: null, media: [], code: null, transition: { kind: 'cut', durationMs: 0 },
    })),
    audio: { voiceover: lines.map((line) => ({ ...line, offsetMs: 0, voice: 'en-us', wordsPerMinute: 150 })), music: null, sfx: [], loudnessLufs: -16 },
  });
  const LONG = 'Every render now shows its progress, its phase and its queue position, right on the dashboard.';
  const seconds = (samples: Float32Array | undefined) => (samples?.length ?? 0) / SAMPLE_RATE;

  it('lets a line run on over the scenes after it until the next line starts, or the video ends', async () => {
    const [alone] = await speakLines(composition([{ sceneId: 'a', text: LONG }]));
    expect(seconds(alone)).toBeGreaterThan(2);
    expect(seconds(alone)).toBeLessThanOrEqual(6);
    const [hurried] = await speakLines(composition([{ sceneId: 'a', text: LONG }, { sceneId: 'b', text: 'Next.' }]));
    expect(seconds(hurried)).toBeLessThanOrEqual(2);
  });
});

describe('buildStems', () => {
  it('centres each whoosh on its cut, the middle of its transition', () => {
    const composition = composeProduction({
      brief: sampleBrief((path) => `https://media.example${path}`, { sound: { voiceover: false, music: false, sfx: true } }),
      pitch: shortPitch(),
    });
    // The whooshes alone: the outro's impact would weigh on its transition's second.
    const whooshes = composition.audio.sfx.filter((effect) => effect.kind === 'whoosh');
    expect(whooshes.length).toBeGreaterThan(0);
    const { sfx } = buildStems({ ...composition, audio: { ...composition.audio, sfx: whooshes } }, [], composition.durationMs / 1000);
    for (const whoosh of whooshes) {
      const scene = composition.scenes.find((s) => s.id === whoosh.sceneId)!;
      const cut = Math.round((scene.startMs / 1000) * SAMPLE_RATE);
      // The middle of the sound's energy, over a second around the cut: within 50 ms of it.
      let weighted = 0;
      let total = 0;
      for (let i = cut - SAMPLE_RATE / 2; i < cut + SAMPLE_RATE / 2; i++) {
        const energy = (sfx!.data[2 * i] ?? 0) ** 2 + (sfx!.data[2 * i + 1] ?? 0) ** 2;
        weighted += energy * i;
        total += energy;
      }
      expect(Math.abs(weighted / total - cut) / SAMPLE_RATE, whoosh.sceneId).toBeLessThan(0.05);
    }
  });
});

describe('mixStems', () => {
  it.each([-16, -23])('brings voice, music and effects to the target loudness (%d LUFS), true peak under -1.5 dBTP', async (target) => {
    const composition = composeProduction({
      brief: sampleBrief((path) => `https://media.example${path}`, { sound: { voiceover: true, music: true, sfx: true } }),
      pitch: shortPitch(),
    });
    const durationSeconds = composition.durationMs / 1000;
    const stems = buildStems(composition, await speakLines(composition), durationSeconds);
    const file = await mix(`changelog${target}`, stems, target, durationSeconds);
    const { integratedLufs, truePeakDb } = await loudness(file);
    expect(Math.abs(integratedLufs - target)).toBeLessThanOrEqual(1);
    expect(truePeakDb).toBeLessThanOrEqual(CEILING_DBTP);
  });

  it('raises a quiet voice to the target, holds its loud burst under the ceiling, and keeps it in sync', async () => {
    const file = await mix('quiet-voice', { voice: tone(-30, 1) });
    const { integratedLufs, truePeakDb } = await loudness(file);
    expect(Math.abs(integratedLufs - -16)).toBeLessThanOrEqual(1);
    expect(truePeakDb).toBeLessThanOrEqual(CEILING_DBTP);
    // The limiter looks ahead: its delay is compensated, so the burst is still at 1 s.
    const samples = await audioSamples(file, SAMPLE_RATE);
    const burst = samples.findIndex((value) => Math.abs(value) > 0.5);
    expect(Math.abs(burst / SAMPLE_RATE - 1)).toBeLessThan(0.002);
  });

  it('leaves effects alone at their own level: they are only limited', async () => {
    const file = await mix('effects', { sfx: tone(-12) });
    expect(20 * Math.log10(await audioPeak(file))).toBeCloseTo(-12, 0);
  });

  it('keeps a silent voice silent instead of raising its noise', async () => {
    const file = await mix('silent-voice', { voice: new StereoTrack(SECONDS * SAMPLE_RATE) });
    expect(await audioPeak(file)).toBe(0);
  });

  it('writes a silent track of the exact length when every stem is off', async () => {
    const file = await mix('no-sound', {});
    expect((await audioSamples(file)).length / 8000).toBeCloseTo(SECONDS, 1);
    expect(await audioPeak(file)).toBe(0);
  });
});
