import { ScheduleAlreadyRunning, ScheduleNotFoundError, ScheduleOverlapPolicy, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import { SEARCH_ATTRIBUTE_KEYS as KEYS, taskQueue, workflowIds } from '@vp/contracts/temporal';
import type { WebhookDeliveryInput } from '@vp/workflows/webhook-definitions';
import { isAlreadyStarted } from './failures.ts';

type Settings = {
  taskQueuePrefix: string;
  retryScheduleMs: readonly number[];
  timeoutMs: number;
  /**
   * In a worker process whose client shares the worker's NativeConnection: the first workflow
   * task comes back with the start, saving a round trip through the server.
   */
  eager?: boolean;
};

/** A delivery to start: its id, and what operators find its workflow by. */
export type DeliveryStart = { id: string; endpointId: string; eventType: string; workspaceId: string; productionId: string | null };

/** The webhook delivery workflows (one per delivery) and the outbox sweep's schedule. */
export function webhookWorkflows(client: Client, settings: Settings) {
  const input = (deliveryId: string): WebhookDeliveryInput => ({ deliveryId, retryScheduleMs: [...settings.retryScheduleMs], timeoutMs: settings.timeoutMs });

  /**
   * Starts a workflow under its id, once: false when a run of it is refused by `reuse` (by default,
   * any run ever started; with ALLOW_DUPLICATE, one still open).
   */
  async function startOnce(delivery: DeliveryStart, args: WebhookDeliveryInput, options: { eager?: boolean; reuse?: WorkflowIdReusePolicy } = {}): Promise<boolean> {
    try {
      await client.workflow.start('webhookDeliveryWorkflow', {
        workflowId: workflowIds.webhookDelivery(delivery.id),
        taskQueue: taskQueue('webhooks', settings.taskQueuePrefix),
        args: [args],
        workflowIdReusePolicy: options.reuse ?? WorkflowIdReusePolicy.REJECT_DUPLICATE,
        requestEagerStart: options.eager ?? false,
        typedSearchAttributes: [
          { key: KEYS.webhookEndpointId, value: delivery.endpointId }, { key: KEYS.eventType, value: delivery.eventType },
          { key: KEYS.workspaceId, value: delivery.workspaceId }, ...(delivery.productionId ? [{ key: KEYS.productionId, value: delivery.productionId }] : []),
        ],
        staticSummary: `Webhook delivery: ${delivery.eventType} to endpoint ${delivery.endpointId}`,
      });
      return true;
    } catch (error) {
      if (!isAlreadyStarted(error)) throw error;
      return false;
    }
  }

  return {
    /**
     * Starts a delivery's workflow unless it was ever started: the id is the delivery's, and a
     * finished run is never started again, so publishing may be retried freely.
     */
    startDelivery: async (delivery: DeliveryStart): Promise<void> => {
      await startOnce(delivery, input(delivery.id), { eager: settings.eager });
    },

    /**
     * Starts a delivery's workflow again, from attempt `firstAttempt`, when its last run ended
     * without it (terminated): refused, and nothing done, while a run is open.
     */
    restartDelivery: (delivery: DeliveryStart, firstAttempt: number): Promise<boolean> =>
      startOnce(delivery, { ...input(delivery.id), firstAttempt }, { reuse: WorkflowIdReusePolicy.ALLOW_DUPLICATE }),

    /**
     * The schedule that runs the outbox sweep every `intervalMs` on the webhooks task queue: created
     * by the first worker to start, brought to the configured interval by every later one. One per
     * deployment, whatever the number of workers; a sweep still running when the next is due is skipped.
     * An interval of 0 (no sweep) removes the schedule a deployment had.
     */
    async ensureOutboxSweep(intervalMs: number): Promise<void> {
      const scheduleId = workflowIds.outboxSweep(settings.taskQueuePrefix);
      if (intervalMs <= 0) {
        await client.schedule.getHandle(scheduleId).delete().catch((error: unknown) => {
          if (!(error instanceof ScheduleNotFoundError)) throw error;
        });
        return;
      }
      const schedule = {
        spec: { intervals: [{ every: intervalMs }] },
        action: {
          type: 'startWorkflow' as const, workflowType: 'webhookOutboxSweepWorkflow', taskQueue: taskQueue('webhooks', settings.taskQueuePrefix), args: [],
          staticSummary: 'Webhook outbox sweep: starts deliveries that no workflow took',
        },
        policies: { overlap: ScheduleOverlapPolicy.SKIP },
      };
      try {
        await client.schedule.create({ scheduleId, ...schedule });
      } catch (error) {
        if (!(error instanceof ScheduleAlreadyRunning)) throw error;
        await client.schedule.getHandle(scheduleId).update((previous) => ({ ...previous, ...schedule }));
      }
    },
  };
}

export type WebhookWorkflows = ReturnType<typeof webhookWorkflows>;
