/**
 * Failures a person may read: the message never carries a stack, a command line or
 * ffmpeg's diagnostics. Those stay in `details` for the logs.
 */
export class RenderError extends Error {
  constructor(message: string, readonly details: string | null = null, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * A medium (or the logo) could not be downloaded, was refused, too large, of the wrong type or
 * undecodable. `transient` when it may pass (a timeout, a lost connection, a busy server): worth
 * another try; every other one fails the same way again.
 */
export class MediaError extends RenderError {
  readonly transient: boolean;

  constructor(
    message: string,
    readonly mediaId: string,
    readonly url: string,
    details: string | null = null,
    options?: { cause?: unknown; transient?: boolean },
  ) {
    super(message, details, options);
    this.transient = options?.transient ?? false;
  }
}

/**
 * A project that does not fit its schema: a fault of the composer, or of a person's edit. It
 * fails the same way on every try, so it is not worth another.
 */
export class CompositionError extends RenderError {}

export type QualityCheck = 'probe' | 'duration' | 'size' | 'fps' | 'video' | 'audio' | 'file size' | 'blank frame';

/** The automatic review of an output file found a fault; `failures` names every one. */
export class QualityError extends RenderError {
  constructor(readonly failures: { check: QualityCheck; message: string }[]) {
    super(`The video did not pass its quality check: ${failures.map((f) => f.message).join('; ')}`);
  }
}
