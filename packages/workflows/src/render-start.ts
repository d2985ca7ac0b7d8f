import { WorkflowIdReusePolicy } from '@temporalio/client';
import { taskQueue, workflowIds } from '@vp/contracts';
import type { ExportWorkflowInput, RenderWorkflowInput } from './definitions.ts';

type Settings = { taskQueuePrefix: string; heartbeatTimeoutMs: number };

/**
 * How a one-call render's workflow is started (gateway): one per render, on the render task queue.
 * Its id is the render's for good: a start after the render was abandoned is refused.
 */
export function renderWorkflowStart(renderId: string, settings: Settings) {
  return {
    workflowId: workflowIds.render(renderId),
    taskQueue: taskQueue('render', settings.taskQueuePrefix),
    args: [{ renderId, heartbeatTimeoutMs: settings.heartbeatTimeoutMs }] as [RenderWorkflowInput],
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
  };
}

/**
 * How the abandonment of a render that never started is started (the unstarted-render sweep):
 * under the render's own workflow id, which only one workflow ever holds, so it is refused when
 * the render's workflow did start.
 */
export function abandonRenderWorkflowStart(renderId: string, settings: { taskQueuePrefix: string }) {
  return {
    workflowId: workflowIds.render(renderId),
    taskQueue: taskQueue('render', settings.taskQueuePrefix),
    args: [{ renderId }] as [{ renderId: string }],
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
  };
}

/** How a re-export's workflow is started (gateway): one per export, on the render task queue. */
export function exportWorkflowStart(exportId: string, settings: Settings) {
  return {
    workflowId: workflowIds.export(exportId),
    taskQueue: taskQueue('render', settings.taskQueuePrefix),
    args: [{ exportId, heartbeatTimeoutMs: settings.heartbeatTimeoutMs }] as [ExportWorkflowInput],
  };
}
