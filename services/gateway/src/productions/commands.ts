import {
  isGrpcServiceError, ServiceError, WorkflowNotFoundError, WorkflowUpdateFailedError, WorkflowUpdateRPCTimeoutOrCancelledError, type Client,
} from '@temporalio/client';
import { ApplicationFailure, NamespaceNotFoundError } from '@temporalio/common';
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

export const UNCONFIRMED_CHANGE = 'The production could not be changed right now, or its answer was lost on the way: read it to see whether the change was made before trying again.';

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
  // As the webhook and render routes answer it: 503 with Retry-After, no code (`disabled` means
  // switched off). The update may have reached the workflow before its answer was lost (a call
  // that timed out, a connection cut): the caller is not told that nothing changed.
  if (temporalUnavailable(error)) {
    return Object.assign(ApiError.unavailable(UNCONFIRMED_CHANGE), { cause: error });
  }
  return error;
}

/** gRPC status codes that mean "not now" rather than "never": DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED, UNAVAILABLE. */
const TRANSIENT_GRPC_CODES = new Set([4, 8, 14]);

/**
 * Temporal cannot serve the call: it cannot be reached (the connection failed once the client's
 * own retries ran out), it is overloaded or out of time, or its namespace does not exist (a server
 * set up wrong; the webhook routes answer that 503 too). Anything else is a bug, and stays a 500.
 */
function temporalUnavailable(error: unknown): boolean {
  if (error instanceof NamespaceNotFoundError || error instanceof WorkflowUpdateRPCTimeoutOrCancelledError) return true;
  return error instanceof ServiceError && isGrpcServiceError(error.cause) && TRANSIENT_GRPC_CODES.has(error.cause.code);
}
