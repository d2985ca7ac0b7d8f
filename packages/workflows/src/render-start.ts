import { taskQueue, workflowIds } from '@vp/contracts';
import type { ExportWorkflowInput, RenderWorkflowInput } from './definitions.ts';

type Settings = { taskQueuePrefix: string; heartbeatTimeoutMs: number };

/** How a one-call render's workflow is started (gateway): one per render, on the render task queue. */
export function renderWorkflowStart(renderId: string, settings: Settings) {
  return {
    workflowId: workflowIds.render(renderId),
    taskQueue: taskQueue('render', settings.taskQueuePrefix),
    args: [{ renderId, heartbeatTimeoutMs: settings.heartbeatTimeoutMs }] as [RenderWorkflowInput],
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
