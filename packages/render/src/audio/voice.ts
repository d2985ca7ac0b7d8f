import type { VoiceLine } from '../composition/schema.ts';
import { RenderError } from '../errors.ts';
import { run } from '../process.ts';
import { readWav, resample, SAMPLE_RATE } from './pcm.ts';

const MAX_WORDS_PER_MINUTE = 400;
const FADE_MS = 60;

/**
 * Emoji, with the joiners, variation selectors, skin tones and flag letters they are made of:
 * they belong on screen, but espeak-ng reads out their names ("Ship it rocket").
 */
const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\p{Emoji_Modifier}|[\u200d\ufe0f\u20e3]/gu;

/** The words of a line to say aloud. */
export function speakable(text: string): string {
  return text.replace(EMOJI, ' ').replace(/\s+/g, ' ').replace(/ ([,.;:!?])/g, '$1').trim();
}

/**
 * A voiceover line spoken by espeak-ng, at 48 kHz. A line that would outlast `maxMs` is
 * spoken faster (up to 400 words a minute), and cut with a short fade if it still does.
 */
export async function speak(line: VoiceLine, maxMs: number, signal?: AbortSignal): Promise<Float32Array> {
  const text = speakable(line.text);
  if (!text) return new Float32Array();
  let samples = await synthesise(text, line.voice, line.wordsPerMinute, signal);
  const maxSamples = Math.max(0, Math.floor((maxMs / 1000) * SAMPLE_RATE));
  if (samples.length > maxSamples && line.wordsPerMinute < MAX_WORDS_PER_MINUTE) {
    const faster = Math.min(MAX_WORDS_PER_MINUTE, Math.ceil(line.wordsPerMinute * (samples.length / maxSamples) * 1.08));
    samples = await synthesise(text, line.voice, faster, signal);
  }
  if (samples.length > maxSamples) {
    samples = samples.slice(0, maxSamples);
    const fade = Math.min(samples.length, Math.floor((FADE_MS / 1000) * SAMPLE_RATE));
    for (let i = 0; i < fade; i++) samples[samples.length - 1 - i] = (samples[samples.length - 1 - i] ?? 0) * (i / fade);
  }
  return samples;
}

async function synthesise(text: string, voice: string, wordsPerMinute: number, signal?: AbortSignal): Promise<Float32Array> {
  // The text goes in on stdin, so nothing in it can be read as an option.
  const wav = await run('espeak-ng', ['-v', voice, '-s', String(wordsPerMinute), '--stdout'], {
    signal, failure: 'The voiceover could not be spoken', input: Buffer.from(text),
  });
  try {
    const { sampleRate, samples } = readWav(wav);
    return resample(samples, sampleRate, SAMPLE_RATE);
  } catch (error) {
    throw new RenderError('The voiceover could not be spoken', String(error), { cause: error });
  }
}
