import { ActivityFailure, ApplicationFailure, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { RenderFarmActivities, RenderFarmSteps } from './definitions.ts';

/**
 * The render farm as a workflow on the render task queue sees it: renders heartbeat, are tried
 * 3 times (a medium that cannot be used is not retried), and their steps are local activities.
 */
export function renderFarm(heartbeatTimeoutMs: number) {
  return {
    farm: proxyActivities<RenderFarmActivities>({
      startToCloseTimeout: '30 minutes',
      heartbeatTimeout: heartbeatTimeoutMs,
      retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumAttempts: 3 },
    }),
    steps: proxyLocalActivities<RenderFarmSteps>({
      startToCloseTimeout: '30 seconds',
      retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 10 },
    }),
  };
}

/** Why a render failed, in words a person can read: never the render machine's diagnostics. */
export function renderFailure(error: ActivityFailure): string {
  const cause = error.cause;
  if (cause instanceof ApplicationFailure && cause.type === 'MediaError') return `An image could not be used: ${cause.message}`;
  return 'The video could not be made after 3 tries. Please try again.';
}
