import { ActivityCancellationType, CancellationScope, patched, proxyActivities, sleep } from '@temporalio/workflow';
import type { ProductionWorkflowInput, StoryboardActivities } from '../definitions.ts';
import type { ProductionState } from './state.ts';

/** A pitch's storyboard stills are drawn as it is shown (before, pitches had none). */
export const STORYBOARD_PATCH = 'storyboard';

/**
 * Draws a shown pitch version's storyboard in the background, on the storyboard task queue (apart
 * from the videos). A few hundred milliseconds of drawing: tried a few times, then the pitch goes
 * without stills. Stopped once the pitch is answered: the video itself comes next.
 * Null where the workflow's history predates storyboards.
 */
export function drawStoryboard(state: ProductionState, input: ProductionWorkflowInput, pitchVersion: number) {
  if (!patched(STORYBOARD_PATCH)) return null;
  const { drawStoryboard: draw } = proxyActivities<StoryboardActivities>({
    // Workflows started before the storyboard queue was named: it sits beside the render queue.
    taskQueue: input.storyboardTaskQueue ?? input.renderTaskQueue.replace(/render$/, 'storyboard'),
    startToCloseTimeout: '2 minutes',
    // Not drawn in 10 minutes (no render worker free): the pitch goes without stills.
    scheduleToCloseTimeout: '10 minutes',
    retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumAttempts: 3 },
    // Stopped, it is waited for: a workflow that ends (declined, cancelled) in the task that stops
    // it would otherwise fail that task, and the Update that ended it with it.
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
  });
  const scope = new CancellationScope();
  const drawn = scope.run(() => draw({ productionId: input.productionId, pitchVersion })).then(() => true, () => false);
  state.background.push(drawn);
  return {
    /** Settles once the stills are drawn (or given up on), or `waitMs` has passed: the e-mail waits no longer. */
    drawnOrWaited: () => (input.storyboardWaitMs ? Promise.race([drawn, sleep(input.storyboardWaitMs)]) : Promise.resolve()),
    cancel: () => scope.cancel(),
  };
}
