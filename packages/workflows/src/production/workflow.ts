import { allHandlersFinished, CancellationScope, condition, isCancellation, ParentClosePolicy, patched, startChild } from '@temporalio/workflow';
import type { Stage } from '@vp/contracts';
import { SEARCH_ATTRIBUTE_KEYS, workflowIds } from '@vp/contracts/temporal';
import type { ProductionWorkflowInput } from '../definitions.ts';
import { discardVideoWorkflow } from '../discard-video.ts';
import { productionActivities } from './activities.ts';
import { acceptUpdates } from './handlers.ts';
import { pitchPhase } from './pitch-phase.ts';
import { ProductionState, STAGE_ATTRIBUTE_PATCH } from './state.ts';
import { videoPhase } from './video-phase.ts';

const OPERATOR_CANCEL_REASON = 'Cancelled by the service\'s operators.';

/**
 * One production, from brief to delivery. The workflow's state is the authority for what may
 * happen next (handlers.ts: the Updates, checked as the spec's table of stages says); it moves the
 * stage and decides what is notified, and every change is written to the read model by an
 * idempotent step (a local activity). The pitch phase, then the video phase.
 */
export async function productionWorkflow(input: ProductionWorkflowInput): Promise<Stage> {
  const state = new ProductionState(input.revisions);
  const activities = productionActivities(input);
  const updates = acceptUpdates(state, input.productionId, activities);

  try {
    await pitchPhase(state, input, activities, updates);
    if (state.now() === 'greenlit') await videoPhase(state, input, activities);
  } catch (error) {
    if (!isCancellation(error)) throw error;
  }
  // Cancelled through Temporal (an operator, not the API): the production must not stay charged
  // and unfinished, so it is cancelled as the API would. What is left runs whatever the cancel.
  const stopped = state.stopping;
  await CancellationScope.nonCancellable(async () => {
    if (stopped) await cancelForTheOperator(state, input, activities);
    // Not delivered: nothing of the video may stay, whatever its last try left (one killed after
    // its upload, or one that finished as the production was cancelled).
    const { video } = state;
    if (video && state.stage !== 'delivered') {
      await startChild(discardVideoWorkflow, {
        workflowId: workflowIds.discardVideo(video.exportId), taskQueue: input.renderTaskQueue,
        args: [{ exportId: video.exportId, reason: video.undelivered }], parentClosePolicy: ParentClosePolicy.ABANDON,
        ...(patched(STAGE_ATTRIBUTE_PATCH) ? { typedSearchAttributes: [{ key: SEARCH_ATTRIBUTE_KEYS.productionId, value: input.productionId }] } : {}),
      });
    }
    // E-mails still being sent were stopped when the pitch was answered: they have settled once
    // stopped, so that nothing reports to a workflow that has ended.
    await Promise.all(state.background);
    // An update may still be recording its outcome; let it finish before the workflow ends.
    await condition(() => !state.lock.held && allHandlersFinished());
  });
  return state.stage;
}

/** The production as the API's cancel leaves it, refund and all: for a workflow cancelled through Temporal. */
async function cancelForTheOperator(state: ProductionState, input: ProductionWorkflowInput, { steps }: ReturnType<typeof productionActivities>) {
  // Asked even when the workflow holds an ending: a stage it set ahead of its step (skipped)
  // may not have been written, the step cut off by the cancel.
  const outcome = await state.lock.runExclusive(() => steps.cancel({ productionId: input.productionId, reason: OPERATOR_CANCEL_REASON, actor: 'system' }));
  // Not applied: the production ended first, delivered perhaps by a step whose answer the cancel cut off.
  if ('refused' in outcome) return;
  state.stage = outcome.applied ? 'cancelled' : outcome.stage;
}
