/** The mix's sample rate: AAC's usual rate for video. */
export const SAMPLE_RATE = 48_000;

/** Mono samples from a 16-bit PCM WAV; a streamed WAV's unknown data size is read to the end. */
export function readWav(bytes: Buffer): { sampleRate: number; samples: Float32Array } {
  if (bytes.toString('latin1', 0, 4) !== 'RIFF' || bytes.toString('latin1', 8, 12) !== 'WAVE') throw new Error('Not a WAV file');
  let offset = 12;
  let sampleRate = 0;
  let channels = 1;
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString('latin1', offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ') {
      channels = bytes.readUInt16LE(body + 2);
      sampleRate = bytes.readUInt32LE(body + 4);
      if (bytes.readUInt16LE(body + 14) !== 16) throw new Error('Only 16-bit WAV is read');
    } else if (id === 'data') {
      const end = Math.min(bytes.length, body + size);
      const frames = Math.floor((end - body) / (2 * channels));
      const samples = new Float32Array(frames);
      for (let i = 0; i < frames; i++) samples[i] = bytes.readInt16LE(body + i * 2 * channels) / 32768;
      return { sampleRate, samples };
    }
    offset = body + size + (size % 2);
  }
  throw new Error('WAV without data');
}

/** Linear resampling: enough for speech going up from 22.05 kHz. */
export function resample(samples: Float32Array, from: number, to: number): Float32Array {
  if (from === to) return samples;
  const out = new Float32Array(Math.floor((samples.length * to) / from));
  const step = from / to;
  for (let i = 0; i < out.length; i++) {
    const position = i * step;
    const index = Math.floor(position);
    const fraction = position - index;
    out[i] = (samples[index] ?? 0) * (1 - fraction) + (samples[index + 1] ?? 0) * fraction;
  }
  return out;
}

export function dbToGain(db: number): number {
  return 10 ** (db / 20);
}

/** A stereo track of a fixed length, interleaved as ffmpeg's f32le reads it. */
export class StereoTrack {
  readonly data: Float32Array;
  constructor(readonly frames: number) {
    this.data = new Float32Array(frames * 2);
  }

  /** Adds `samples` (mono) from sample `at`, panned to the centre. */
  addMono(samples: Float32Array, at: number, gain = 1): void {
    for (let i = 0; i < samples.length; i++) {
      const frame = at + i;
      if (frame < 0) continue;
      if (frame >= this.frames) break;
      const value = (samples[i] ?? 0) * gain;
      this.data[2 * frame] = (this.data[2 * frame] ?? 0) + value;
      this.data[2 * frame + 1] = (this.data[2 * frame + 1] ?? 0) + value;
    }
  }

  get silent(): boolean {
    return this.data.every((v) => v === 0);
  }

  toBuffer(): Buffer {
    return Buffer.from(this.data.buffer, this.data.byteOffset, this.data.byteLength);
  }
}
