import type { Brief, Pitch } from '@vp/contracts';

export type PitchComment = { comment: string; pitchVersion: number };

export type WriteInput = {
  brief: Brief;
  /** The version to write; 1 for the first pitch. */
  version: number;
  /** The pitch being revised; null for version 1. */
  previous: Pitch | null;
  /** Every comment so far, oldest first; the last one is the one this version answers. */
  comments: PitchComment[];
};

export type PitchWriter = { write(input: WriteInput): Promise<Pitch> };

export type PitchWriterFailure = 'refused' | 'unreachable' | 'timeout' | 'http' | 'invalid_json' | 'invalid_pitch';

/** A pitch could not be written; the message says why in words a person can act on. */
export class PitchWriterError extends Error {
  override readonly name = 'PitchWriterError';
  readonly failure: PitchWriterFailure;
  readonly attempts: number;

  constructor(message: string, failure: PitchWriterFailure, attempts: number) {
    super(message);
    this.failure = failure;
    this.attempts = attempts;
  }
}
