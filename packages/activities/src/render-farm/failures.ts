import { log } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { CompositionError, MediaError, RenderError } from '@vp/render';

/** Whether the failure will come again on every try: a medium that cannot be used, a project that does not fit. */
export function failsEveryTry(error: unknown): boolean {
  return (error instanceof MediaError && !error.transient) || error instanceof CompositionError;
}

/**
 * A render's failure as Temporal should see it, with the renderer's readable message only. A
 * medium that cannot be used will not work on a retry: non-retryable `MediaError`; one that may
 * pass (a timeout, a 5xx) is a retryable `MediaError`, so the render farm's tries apply. A
 * project that does not fit its schema is our fault and the same on every try: not retried. Other
 * render failures are retried; their diagnostics go to the worker's log, never into the failure.
 * The details carry `{ attempt }`, the try that failed, so the workflow can say how many there were.
 */
export function asActivityFailure(error: unknown, attempt = 1): unknown {
  if (error instanceof RenderError && error.details) log.warn('render failed', { error: error.message, details: error.details });
  const details = [{ attempt }];
  if (error instanceof MediaError) return ApplicationFailure.create({ type: 'MediaError', message: error.message, nonRetryable: failsEveryTry(error), details });
  if (error instanceof CompositionError) return ApplicationFailure.create({ type: error.name, message: error.message, nonRetryable: failsEveryTry(error), details });
  if (error instanceof RenderError) return ApplicationFailure.create({ type: error.name, message: error.message, details });
  return error;
}

/**
 * A try cut short by its worker's stop (past `shutdownGraceTime`), as a retryable failure: as a
 * cancellation, Temporal would be told of a cancel it never asked for.
 */
export function workerStoppedFailure(attempt: number): ApplicationFailure {
  return ApplicationFailure.create({ type: 'WorkerStopped', message: 'The render worker stopped before the video was finished.', details: [{ attempt }] });
}
