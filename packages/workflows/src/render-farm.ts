import { ActivityFailure, ApplicationFailure, CancelledFailure, isCancellation, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import { RENDER_TRIES, STEP_RETRY, type RenderFarmActivities, type RenderFarmSteps } from './definitions.ts';

/** The render farm's short steps, local activities of its workflows, tried until they pass. */
export const renderFarmSteps = () => proxyLocalActivities<RenderFarmSteps>({ startToCloseTimeout: '30 seconds', retry: STEP_RETRY });

/**
 * The render farm as a workflow on the render task queue sees it: renders heartbeat, are tried
 * 3 times (a medium that cannot be used is not retried), and their steps are local activities.
 */
export function renderFarm(heartbeatTimeoutMs: number) {
  return {
    farm: proxyActivities<RenderFarmActivities>({
      startToCloseTimeout: '30 minutes',
      heartbeatTimeout: heartbeatTimeoutMs,
      retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumAttempts: RENDER_TRIES },
    }),
    steps: renderFarmSteps(),
  };
}

/**
 * A render farm activity's failure, or the cancellation of its workflow: a cancelled scope
 * refuses to schedule the activity at all (a plain `CancelledFailure`) when the cancel came first.
 */
export function isRenderFailure(error: unknown): error is ActivityFailure | CancelledFailure {
  return error instanceof ActivityFailure || error instanceof CancelledFailure;
}

/**
 * Why a render failed, in words a person can read: never the render machine's diagnostics.
 * `medium` names what a media failure was about ("An image"); `then` says what happens next.
 * A render cancelled with its workflow was stopped through Temporal, by the service's operators.
 */
export function renderFailure(error: ActivityFailure | CancelledFailure, words: { medium: string; then: string }): string {
  if (!(error instanceof ActivityFailure) || isCancellation(error)) return 'The render was cancelled by the service\'s operators.';
  const cause = error.cause;
  const tries = triesOf(error);
  if (cause instanceof ApplicationFailure && cause.type === 'MediaError') {
    return `${words.medium} could not be used: ${cause.message}${tries > 1 ? ` (after ${tries} tries)` : ''}`;
  }
  return `The video could not be made${tries > 1 ? ` after ${tries} tries` : ''}. ${words.then}`;
}

/**
 * How many tries there were: every one when the retry policy gave up, else the try that failed
 * for good (the render farm puts `{ attempt }` in its failures' details); 1 when it does not say.
 */
function triesOf(error: ActivityFailure): number {
  if (error.retryState === 'MAXIMUM_ATTEMPTS_REACHED') return RENDER_TRIES;
  const details = error.cause instanceof ApplicationFailure ? error.cause.details?.[0] : undefined;
  const attempt = (details as { attempt?: unknown } | undefined)?.attempt;
  return typeof attempt === 'number' ? attempt : 1;
}
