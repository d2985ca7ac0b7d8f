import type { Music } from '../composition/schema.ts';
import { SAMPLE_RATE } from './pcm.ts';

const TABLE_SIZE = 4096;

/** One cycle of a tone made of harmonics of these amplitudes (the fundamental first), to look up by phase. */
function wavetable(partials: number[]): Float32Array {
  return Float32Array.from({ length: TABLE_SIZE + 1 }, (_, i) => partials.reduce(
    (sum, amplitude, n) => sum + amplitude * Math.sin((2 * Math.PI * (n + 1) * i) / TABLE_SIZE), 0,
  ));
}

/**
 * The bed's voices by table, harmonics included: one lookup a voice a sample, where Math.sin
 * would dominate (the pad alone is eight voices). A sample differs by under 1e-7 from the
 * same harmonics looked up one by one, and the bed takes half the time.
 */
const SINE = wavetable([1]);
const PAD = wavetable([1, 0.25, 0.08]);
const PAD_DETUNED = wavetable([1, 0.25]);
const PLUCK = wavetable([1, 0.3]);

/** The table's value `phase` cycles in (0 or more), interpolated. */
function lookup(table: Float32Array, phase: number): number {
  const position = phase * TABLE_SIZE;
  const whole = Math.floor(position);
  // The low bits of the whole part are the place in the cycle: TABLE_SIZE is a power of two.
  const index = whole & (TABLE_SIZE - 1);
  const a = table[index] ?? 0;
  return a + ((table[index + 1] ?? 0) - a) * (position - whole);
}

const KEYS: Record<Music['key'], number> = { C: 0, D: 2, E: 4, F: 5, G: 7, A: 9, B: 11 };
const DEGREES: Record<Music['progression'][number], { root: number; minor: boolean }> = {
  I: { root: 0, minor: false }, ii: { root: 2, minor: true }, iii: { root: 4, minor: true },
  IV: { root: 5, minor: false }, V: { root: 7, minor: false }, vi: { root: 9, minor: true },
};

const hz = (midi: number) => 440 * 2 ** ((midi - 69) / 12);

/** A deterministic noise source, so the same project always sounds the same. */
function noise(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return ((state >>> 0) / 0xffffffff) * 2 - 1;
  };
}

/**
 * A soft music bed: a warm pad on the chord progression (one chord a bar), a plucked
 * arpeggio in eighths, a gentle kick on beats one and three; fades in and out. Stereo, interleaved.
 */
export function musicBed(music: Music, frames: number): Float32Array {
  const out = new Float32Array(frames * 2);
  const beat = 60 / music.bpm;
  const bar = 4 * beat;
  const base = 48 + KEYS[music.key]; // C3 and up
  const chords = music.progression.map((degree) => {
    const { root, minor } = DEGREES[degree];
    const r = base + root;
    return { bass: hz(r - 12), pad: [r, r + (minor ? 3 : 4), r + 7, r + 12].map(hz), arp: [r + 12, r + 19, r + (minor ? 15 : 16) + 12, r + 24].map(hz) };
  });
  const fadeIn = 0.6 * SAMPLE_RATE;
  const fadeOut = 1.2 * SAMPLE_RATE;
  for (let i = 0; i < frames; i++) {
    const time = i / SAMPLE_RATE;
    const barIndex = Math.floor(time / bar);
    const chord = chords[barIndex % chords.length] ?? chords[0];
    if (!chord) break;
    const inBar = time - barIndex * bar;
    // Each chord swells in over 0.4 s: the change is soft, not a click.
    const swell = Math.min(1, inBar / 0.4);
    let left = 0;
    let right = 0;
    for (let n = 0; n < chord.pad.length; n++) {
      const f = chord.pad[n] ?? 0;
      const level = 0.05 * (n === 0 ? 1 : 0.8);
      left += lookup(PAD, f * time) * level;
      right += lookup(PAD_DETUNED, f * 1.003 * time) * level;
    }
    const bass = 0.11 * lookup(SINE, chord.bass * time) * swell;
    left = left * swell + bass;
    right = right * swell + bass;
    // Plucked arpeggio: eighth notes through the chord, each decaying quickly.
    const eighth = beat / 2;
    const step = Math.floor(inBar / eighth);
    const sinceNote = inBar - step * eighth;
    const note = chord.arp[step % chord.arp.length] ?? 0;
    const pluck = 0.045 * Math.exp(-sinceNote * 9) * lookup(PLUCK, note * time);
    left += pluck * (step % 2 ? 0.6 : 1);
    right += pluck * (step % 2 ? 1 : 0.6);
    // Kick on beats one and three: a sine falling from 110 to 45 Hz.
    const sinceKick = time % (2 * beat);
    const kick = 0.2 * Math.exp(-sinceKick * 18) * Math.sin(2 * Math.PI * (45 * sinceKick + (65 / 25) * (1 - Math.exp(-25 * sinceKick))));
    const envelope = Math.min(1, i / fadeIn, (frames - i) / fadeOut);
    out[2 * i] = (left + kick) * envelope;
    out[2 * i + 1] = (right + kick) * envelope;
  }
  return out;
}

/** Where a whoosh is loudest, as a share of its length: its level swells to here and is gone by 0.8. */
export const WHOOSH_PEAK = 0.4;

/** Filtered noise whose pitch and level rise and fall, panning left to right: 0.7 s. */
export function whoosh(seed = 1): Float32Array {
  const frames = Math.round(0.7 * SAMPLE_RATE);
  const out = new Float32Array(frames * 2);
  const random = noise(seed);
  let low = 0;
  let band = 0;
  for (let i = 0; i < frames; i++) {
    const x = i / frames;
    const envelope = Math.sin(Math.PI * Math.min(1, x / (2 * WHOOSH_PEAK))) ** 2;
    const cutoff = 300 + 2800 * Math.sin(Math.PI * x) ** 1.5;
    // State-variable band-pass.
    const f = 2 * Math.sin((Math.PI * cutoff) / SAMPLE_RATE);
    const high = random() - low - 0.6 * band;
    band += f * high;
    low += f * band;
    const value = band * envelope * 0.5;
    out[2 * i] = value * (1 - 0.7 * x);
    out[2 * i + 1] = value * (0.3 + 0.7 * x);
  }
  return out;
}

/** A soft low thump with a short click on top: 0.8 s. */
export function impact(seed = 2): Float32Array {
  const frames = Math.round(0.8 * SAMPLE_RATE);
  const out = new Float32Array(frames * 2);
  const random = noise(seed);
  let smooth = 0;
  for (let i = 0; i < frames; i++) {
    const time = i / SAMPLE_RATE;
    const body = Math.exp(-time * 6) * Math.sin(2 * Math.PI * (38 * time + (40 / 12) * (1 - Math.exp(-12 * time))));
    smooth += 0.2 * (random() - smooth);
    const click = Math.exp(-time * 120) * smooth;
    const value = 0.7 * body + 0.4 * click;
    out[2 * i] = value;
    out[2 * i + 1] = value;
  }
  return out;
}
