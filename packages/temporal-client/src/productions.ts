import { WorkflowIdConflictPolicy, WorkflowIdReusePolicy, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { DomainError, REVISIONS, SEARCH_ATTRIBUTE_KEYS as KEYS, taskQueue, workflowIds } from '@vp/contracts';
import {
  cancelUpdate, commentUpdate, declineUpdate, greenlightUpdate, renderProgressSignal,
  type CancelArgs, type CommentArgs, type DeclineArgs, type GreenlightArgs, type ProductionWorkflowInput, type RenderProgress,
} from '@vp/workflows/definitions';
import { asDomainError, isAlreadyStarted, temporalUnavailable } from './failures.ts';

export type ProductionWorkflowSettings = {
  taskQueuePrefix: string;
  stepTimeoutMs: number;
  renderHeartbeatTimeoutMs?: number;
  /** How long a pitch's e-mail waits for its storyboard stills. */
  storyboardWaitMs?: number;
  /** How long a caller waits for an Update's answer before it is told to read the production (503). */
  updateDeadlineMs: number;
};

/** The settings from a loaded configuration (structurally, so this package needs no config import). */
export function productionWorkflowSettings(config: {
  temporal: { taskQueuePrefix: string; updateDeadlineMs: number };
  worker: { stepTimeoutMs: number };
  render: { heartbeatTimeoutMs: number; storyboardWaitMs?: number };
}): ProductionWorkflowSettings {
  return {
    taskQueuePrefix: config.temporal.taskQueuePrefix, stepTimeoutMs: config.worker.stepTimeoutMs,
    renderHeartbeatTimeoutMs: config.render.heartbeatTimeoutMs, updateDeadlineMs: config.temporal.updateDeadlineMs,
    storyboardWaitMs: config.render.storyboardWaitMs,
  };
}

/** Said when an Update's answer did not come: it may have been taken. */
export const UNCONFIRMED_CHANGE = 'The production could not be changed right now, or its answer was lost on the way: read it to see whether the change was made before trying again.';

/**
 * The production workflows as their callers use them: one per production, started under the
 * production's id on the productions task queue; greenlight, comment, decline and cancel are
 * Updates (the caller needs the answer), whose refusals come back as domain errors.
 */
export function productionWorkflows(client: Client, settings: ProductionWorkflowSettings) {
  const handle = (productionId: string) => client.workflow.getHandle(workflowIds.production(productionId));

  /** Sends an Update and waits for its answer, at most `updateDeadlineMs`. */
  async function update<A>(productionId: string, definition: typeof greenlightUpdate | typeof commentUpdate | typeof declineUpdate | typeof cancelUpdate, args: A) {
    try {
      await client.withAbortSignal(AbortSignal.timeout(settings.updateDeadlineMs), () =>
        handle(productionId).executeUpdate(definition as never, { args: [args] as never }));
    } catch (error) {
      // The workflow has ended: the production is in a final stage.
      if (error instanceof WorkflowNotFoundError) throw new DomainError('stage', 'The production has ended.');
      // The update may have reached the workflow before its answer was lost: the caller is not
      // told that nothing changed.
      if (temporalUnavailable(error)) throw Object.assign(new DomainError('unavailable', UNCONFIRMED_CHANGE), { cause: error });
      throw asDomainError(error);
    }
  }

  return {
    /**
     * Starts the production's workflow; starting again is harmless (the running one is kept), so
     * a replayed create heals a start whose answer was lost. `unavailable` when Temporal cannot take it.
     */
    async start(production: { productionId: string; workspaceId: string; greenlightMode: 'manual' | 'auto' }): Promise<void> {
      const input: ProductionWorkflowInput = {
        productionId: production.productionId,
        greenlightMode: production.greenlightMode,
        revisions: REVISIONS,
        renderTaskQueue: taskQueue('render', settings.taskQueuePrefix),
        storyboardTaskQueue: taskQueue('storyboard', settings.taskQueuePrefix),
        storyboardWaitMs: settings.storyboardWaitMs ?? 0,
        stepTimeoutMs: settings.stepTimeoutMs,
        ...(settings.renderHeartbeatTimeoutMs ? { renderHeartbeatTimeoutMs: settings.renderHeartbeatTimeoutMs } : {}),
      };
      try {
        await client.workflow.start('productionWorkflow', {
          workflowId: workflowIds.production(production.productionId),
          taskQueue: taskQueue('productions', settings.taskQueuePrefix),
          args: [input],
          // Running: kept. Ended: never started again (its production is final).
          workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
          workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
          typedSearchAttributes: [
            { key: KEYS.workspaceId, value: production.workspaceId }, { key: KEYS.productionId, value: production.productionId }, { key: KEYS.stage, value: 'queued' },
          ],
          staticSummary: `Production ${production.productionId} of workspace ${production.workspaceId} (${production.greenlightMode} greenlight)`,
        });
      } catch (error) {
        if (isAlreadyStarted(error)) return;
        throw Object.assign(new DomainError('unavailable', 'Productions cannot be started right now; try again shortly.'), { cause: error });
      }
    },
    greenlight: (productionId: string, args: GreenlightArgs) => update(productionId, greenlightUpdate, args),
    comment: (productionId: string, args: CommentArgs) => update(productionId, commentUpdate, args),
    decline: (productionId: string, args: DeclineArgs) => update(productionId, declineUpdate, args),
    cancel: (productionId: string, args: CancelArgs) => update(productionId, cancelUpdate, args),
    /** A render try's report, for the production's workflow to record (the render farm calls it). */
    reportProgress: (productionId: string, report: RenderProgress) => handle(productionId).signal(renderProgressSignal, report),
  };
}

export type ProductionWorkflows = ReturnType<typeof productionWorkflows>;
