import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { ApiError, workflowIds } from '@vp/contracts';
import { secondsToNextMonth } from '@vp/productions';
import type { Refusal } from '@vp/workflows/definitions';
import type { UpdateDefinition } from '@temporalio/client';

const REFUSAL_STATUS: Record<Refusal, ApiError['status']> = { stage: 409, credits: 402, revisions: 409, cap: 429 };

/**
 * Sends an Update to a production's workflow and turns a refusal into the API's answer.
 * Used by the /v1 routes and by greenlight links alike.
 */
export async function updateProduction<Arg>(
  client: Client,
  productionId: string,
  update: UpdateDefinition<void, [Arg]>,
  arg: Arg,
): Promise<void> {
  try {
    await client.workflow.getHandle(workflowIds.production(productionId)).executeUpdate(update, { args: [arg] });
  } catch (error) {
    throw toApiError(error);
  }
}

function toApiError(error: unknown): unknown {
  if (error instanceof WorkflowUpdateFailedError && error.cause instanceof ApplicationFailure) {
    const type = error.cause.type as Refusal;
    const status = REFUSAL_STATUS[type];
    if (status) {
      const headers: Record<string, string> = type === 'cap' ? { 'Retry-After': String(secondsToNextMonth()) } : {};
      return new ApiError(status, error.cause.message, type, headers);
    }
  }
  // The workflow has ended: the production is in a terminal stage.
  if (error instanceof WorkflowNotFoundError) return new ApiError(409, 'The production has ended.', 'stage');
  return error;
}
