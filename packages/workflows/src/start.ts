import { REVISIONS, taskQueue, workflowIds } from '@vp/contracts';
import type { ProductionWorkflowInput } from './definitions.ts';

/**
 * How a production workflow is started (gateway) — one place, so the id, queue and
 * input never drift between callers. Not part of the workflow bundle.
 */
export function productionWorkflowStart(input: {
  productionId: string;
  greenlightMode: 'manual' | 'auto';
  taskQueuePrefix: string;
  stepTimeoutMs: number;
  renderHeartbeatTimeoutMs?: number;
}) {
  const args: ProductionWorkflowInput = {
    productionId: input.productionId,
    greenlightMode: input.greenlightMode,
    revisions: REVISIONS,
    renderTaskQueue: taskQueue('render', input.taskQueuePrefix),
    stepTimeoutMs: input.stepTimeoutMs,
    ...(input.renderHeartbeatTimeoutMs ? { renderHeartbeatTimeoutMs: input.renderHeartbeatTimeoutMs } : {}),
  };
  return {
    workflowId: workflowIds.production(input.productionId),
    taskQueue: taskQueue('productions', input.taskQueuePrefix),
    args: [args] as [ProductionWorkflowInput],
  };
}
