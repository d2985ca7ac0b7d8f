import { WorkflowIdReusePolicy, type Client, type WorkflowExecutionStatusName } from '@temporalio/client';
import { SEARCH_ATTRIBUTE_KEYS as KEYS, taskQueue, workflowIds } from '@vp/contracts';
import type { ExportWorkflowInput, RenderWorkflowInput } from '@vp/workflows/definitions';
import { isAlreadyStarted } from './failures.ts';

/** A workflow in one of these states will never act again (a paused one may). */
const ENDED = new Set<WorkflowExecutionStatusName>(['COMPLETED', 'FAILED', 'CANCELLED', 'TERMINATED', 'TIMED_OUT', 'CONTINUED_AS_NEW']);

type Settings = { taskQueuePrefix: string; heartbeatTimeoutMs: number };

/**
 * The render farm's own workflows, on the render task queue: one per one-call render, one per
 * re-export of a project version, and the abandonment of a render that never started.
 */
export function renderFarmWorkflows(client: Client, settings: Settings) {
  const queue = taskQueue('render', settings.taskQueuePrefix);
  return {
    /** A one-call render's workflow. Its id is the render's for good: a start after the render was abandoned is refused. */
    startRender: (render: { renderId: string; accountId: string }) => client.workflow.start('renderWorkflow', {
      workflowId: workflowIds.render(render.renderId), taskQueue: queue,
      args: [{ renderId: render.renderId, heartbeatTimeoutMs: settings.heartbeatTimeoutMs }] satisfies [RenderWorkflowInput],
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      typedSearchAttributes: [{ key: KEYS.accountId, value: render.accountId }],
      staticSummary: `One-call render ${render.renderId} of account ${render.accountId}`,
    }),

    /**
     * The abandonment of a render that never started (the unstarted-render sweep): under the
     * render's own workflow id, which only one workflow ever holds, so it is refused (false) when
     * the render's workflow did start.
     */
    async abandonRender(renderId: string): Promise<boolean> {
      try {
        await client.workflow.start('abandonRenderWorkflow', {
          workflowId: workflowIds.render(renderId), taskQueue: queue, args: [{ renderId }],
          workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
          staticSummary: `Abandoning render ${renderId}, which never started`,
        });
        return true;
      } catch (error) {
        if (isAlreadyStarted(error)) return false;
        throw error;
      }
    },

    /** Whether the workflow under the render's id has ended, never to act again. */
    renderWorkflowEnded: async (renderId: string): Promise<boolean> =>
      ENDED.has((await client.workflow.getHandle(workflowIds.render(renderId)).describe()).status.name),

    /** A re-export's workflow: one per export. Asking again finds it started (WorkflowExecutionAlreadyStartedError). */
    startExport: (made: { exportId: string; workspaceId: string }) => client.workflow.start('exportWorkflow', {
      workflowId: workflowIds.export(made.exportId), taskQueue: queue,
      args: [{ exportId: made.exportId, heartbeatTimeoutMs: settings.heartbeatTimeoutMs }] satisfies [ExportWorkflowInput],
      typedSearchAttributes: [{ key: KEYS.workspaceId, value: made.workspaceId }],
      staticSummary: `Export ${made.exportId} of a project version, workspace ${made.workspaceId}`,
    }),

    /** Holds until the render's workflow ends or `ms` pass, whichever is first; not at all when `ms` is spent. */
    async waitForRender(renderId: string, ms: number): Promise<void> {
      if (ms <= 0) return;
      try {
        await client.withAbortSignal(AbortSignal.timeout(ms), () => client.workflow.getHandle(workflowIds.render(renderId)).result());
      } catch {
        // Out of time (or Temporal unreachable): the caller reads the render as it stands.
      }
    },
  };
}

export type RenderFarmWorkflows = ReturnType<typeof renderFarmWorkflows>;
