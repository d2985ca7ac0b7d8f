import { isGrpcServiceError, ServiceError, WorkflowUpdateFailedError, WorkflowUpdateRPCTimeoutOrCancelledError } from '@temporalio/client';
import { ApplicationFailure, NamespaceNotFoundError } from '@temporalio/common';
import { DomainError } from '@vp/contracts';
import { REFUSALS, type Refusal } from '@vp/workflows/definitions';

/** An Update a workflow refused (an ApplicationFailure of a refusal type), as the domain says it; anything else as it is. */
export function asDomainError(error: unknown): unknown {
  if (error instanceof WorkflowUpdateFailedError && error.cause instanceof ApplicationFailure) {
    const type = error.cause.type ?? '';
    if (Object.hasOwn(REFUSALS, type)) return new DomainError(REFUSALS[type as Refusal], error.cause.message);
  }
  return error;
}

/** gRPC status codes that mean "not now" rather than "never": CANCELLED (our deadline), DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED, UNAVAILABLE. */
const TRANSIENT_GRPC_CODES = new Set([1, 4, 8, 14]);

/**
 * Temporal cannot serve the call: it cannot be reached (the connection failed once the client's
 * own retries ran out), it is overloaded or out of time, or its namespace does not exist (a server
 * set up wrong). Anything else is a bug.
 */
export function temporalUnavailable(error: unknown): boolean {
  if (error instanceof NamespaceNotFoundError || error instanceof WorkflowUpdateRPCTimeoutOrCancelledError) return true;
  return error instanceof ServiceError && isGrpcServiceError(error.cause) && TRANSIENT_GRPC_CODES.has(error.cause.code);
}

export function isAlreadyStarted(error: unknown): boolean {
  return error instanceof Error && error.name === 'WorkflowExecutionAlreadyStartedError';
}
