import { WorkflowIdConflictPolicy, WorkflowIdReusePolicy, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { DomainError, SEARCH_ATTRIBUTE_KEYS as KEYS, taskQueue, workflowIds } from '@vp/contracts';
import {
  approveKeyRequestUpdate, claimKeyRequestUpdate, denyKeyRequestUpdate, revokeClaimedKeyUpdate,
  type KeyRequestInput, type KeyRequestOutcome,
} from '@vp/workflows/key-request-definitions';
import { isAlreadyStarted, temporalUnavailable } from './failures.ts';

export type KeyRequestWorkflowSettings = Omit<KeyRequestInput, 'requestId'> & {
  taskQueuePrefix: string;
  /** How long a caller waits for an Update's answer before it is told to try again (503). */
  updateDeadlineMs: number;
};

/** The settings from a loaded configuration (structurally, so this package needs no config import). */
export function keyRequestWorkflowSettings(config: {
  temporal: { taskQueuePrefix: string; updateDeadlineMs: number };
  worker: { stepTimeoutMs: number };
  keyRequests: { pendingMs: number; claimWindowMs: number; revokeGraceMs: number };
}): KeyRequestWorkflowSettings {
  return { taskQueuePrefix: config.temporal.taskQueuePrefix, updateDeadlineMs: config.temporal.updateDeadlineMs, stepTimeoutMs: config.worker.stepTimeoutMs, ...config.keyRequests };
}

/** Said when an Update's answer did not come: it may have been taken. */
const UNCONFIRMED = 'The key request could not be answered right now, or its answer was lost on the way; try again shortly.';

type KeyUpdate = typeof approveKeyRequestUpdate | typeof claimKeyRequestUpdate;

/**
 * The device key request workflows as their callers use them: one per request, started under the
 * request's id on the keys task queue; approve, deny, claim and revoke are Updates (the caller needs
 * the answer). An Update to a request whose workflow has ended answers null: the read model then
 * holds its final state.
 */
export function keyRequestWorkflows(client: Client, settings: KeyRequestWorkflowSettings) {
  const { taskQueuePrefix: _prefix, updateDeadlineMs, ...timers } = settings;

  async function update(requestId: string, definition: KeyUpdate, args: unknown[]): Promise<KeyRequestOutcome | null> {
    try {
      return await client.withAbortSignal(AbortSignal.timeout(updateDeadlineMs), () =>
        client.workflow.getHandle(workflowIds.keyRequest(requestId)).executeUpdate(definition as typeof claimKeyRequestUpdate, { args: args as [] }));
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return null;
      if (temporalUnavailable(error)) throw Object.assign(new DomainError('unavailable', UNCONFIRMED), { cause: error });
      throw error;
    }
  }

  return {
    /** Starts the request's workflow; starting again keeps the running one. `unavailable` when Temporal cannot take it. */
    async start(requestId: string): Promise<void> {
      try {
        await client.workflow.start('keyRequestWorkflow', {
          workflowId: workflowIds.keyRequest(requestId),
          taskQueue: taskQueue('keys', settings.taskQueuePrefix),
          args: [{ requestId, ...timers } satisfies KeyRequestInput],
          workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
          workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
          typedSearchAttributes: [{ key: KEYS.keyRequestStatus, value: 'pending' }],
          staticSummary: `Device key request ${requestId}`,
        });
      } catch (error) {
        if (isAlreadyStarted(error)) return;
        throw Object.assign(new DomainError('unavailable', 'Key requests cannot be taken right now; try again shortly.'), { cause: error });
      }
    },
    approve: (requestId: string, accountId: string) => update(requestId, approveKeyRequestUpdate, [{ accountId }]),
    deny: (requestId: string, accountId: string) => update(requestId, denyKeyRequestUpdate, [{ accountId }]),
    claim: (requestId: string) => update(requestId, claimKeyRequestUpdate, []),
    revokeClaimed: (requestId: string) => update(requestId, revokeClaimedKeyUpdate, []),
  };
}

export type KeyRequestWorkflows = ReturnType<typeof keyRequestWorkflows>;
