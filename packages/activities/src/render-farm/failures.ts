import { log } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { MediaError, RenderError } from '@vp/render';

/**
 * A render's failure as Temporal should see it. A medium that cannot be used will not work on a
 * retry: non-retryable `MediaError` with the renderer's readable message. Other render failures
 * are retried; their diagnostics go to the worker's log, never into the failure.
 */
export function asActivityFailure(error: unknown): unknown {
  if (error instanceof RenderError && error.details) log.warn('render failed', { error: error.message, details: error.details });
  if (error instanceof MediaError) return ApplicationFailure.create({ type: 'MediaError', message: error.message, nonRetryable: true });
  if (error instanceof RenderError) return ApplicationFailure.create({ type: error.name, message: error.message });
  return error;
}
