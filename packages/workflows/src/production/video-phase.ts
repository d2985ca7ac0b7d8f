import { ActivityFailure, CancellationScope, condition, isCancellation, setHandler, uuid4 } from '@temporalio/workflow';
import { RENDER_TRIES, renderProgressSignal, type ProductionWorkflowInput, type RenderProgress } from '../definitions.ts';
import { renderFailure } from '../render-farm.ts';
import type { Activities } from './activities.ts';
import { emailNotice } from './notices.ts';
import type { ProductionState } from './state.ts';

/**
 * The video, once greenlit (the spec leaves the moves among greenlit, making, exporting and
 * delivered to us): `making` while the render farm makes it, `exporting` while a try exports
 * it (and `making` again when a later try starts over), then `delivered`; `failed`, refunded,
 * when every try failed. The render farm reports its phases; this workflow alone records them
 * and moves the stage.
 */
export async function videoPhase(state: ProductionState, input: ProductionWorkflowInput, activities: Activities) {
  const { steps, renderFarm } = activities;
  const { productionId } = input;
  const progress = recordProgress(state, input, steps);
  // Not applied: a cancel recorded first; its handler may not have resumed to say so yet.
  if (!(await steps.startMaking({ productionId })).applied || state.ended) return;
  state.stage = 'making';
  // Random, as the share address it names must not follow from the production's id.
  const exportId = uuid4();
  const video = { exportId, undelivered: 'The production was cancelled.' };
  state.video = video;
  try {
    state.making = new CancellationScope();
    const projectId = state.projectId as string;
    await state.making.run(() => renderFarm.makeVideo({ productionId, projectId, exportId }));
    state.making = null;
    await progress.drained();
    if ((await steps.deliver({ productionId, exportId })).applied) {
      state.stage = 'delivered';
      emailNotice(state, activities, productionId, 'video_delivered');
      return;
    }
    // Not applied: cancelled as the video was finished.
  } catch (error) {
    // Cancelled: the cancel update records the outcome and the refund.
    if (!isCancellation(error)) {
      if (!(error instanceof ActivityFailure)) throw error;
      video.undelivered = 'The video could not be made.';
      await progress.drained();
      const failure = renderFailure(error, { medium: 'A media file', then: 'Your credits were refunded.' });
      const failed = await state.lock.runExclusive(async () => {
        if (state.ended || !(await steps.fail({ productionId, error: failure })).applied) return false;
        state.stage = 'failed';
        return true;
      });
      if (failed) emailNotice(state, activities, productionId, 'production_failed');
    }
  }
}

/**
 * Records the render farm's reports in the order they came, each a step of its own under the
 * lock; a report from a try older than one already heard from is dropped (a try the server gave
 * up on may report on in the moment before it hears). The stage follows the try: `exporting` once
 * it exports, `making` again when a later try starts over.
 */
function recordProgress(state: ProductionState, input: ProductionWorkflowInput, steps: Activities['steps']) {
  const reports: RenderProgress[] = [];
  let newestTry = 0;
  let recording = false;
  setHandler(renderProgressSignal, (report) => {
    reports.push(report);
    if (!recording) void record();
  });

  async function record() {
    recording = true;
    try {
      for (let report = reports.shift(); report; report = reports.shift()) {
        if (report.attempt < newestTry) continue;
        newestTry = report.attempt;
        const { phase, attempt, startedAt } = report;
        await state.lock.runExclusive(async () => {
          if (state.stage !== 'making' && state.stage !== 'exporting') return;
          const stage = phase === 'exporting' ? 'exporting' : phase && state.stage === 'exporting' ? 'making' : null;
          const outcome = await steps.recordProgress({ productionId: input.productionId, attempt, maxAttempts: RENDER_TRIES, phase, startedAt, stage });
          // Not applied: the production moved on (a cancel) between the report and its step.
          if (outcome.applied && stage) state.stage = stage;
        });
      }
    } finally {
      recording = false;
    }
  }

  return {
    /** Every report heard so far is recorded. */
    drained: () => condition(() => !recording && reports.length === 0),
  };
}
