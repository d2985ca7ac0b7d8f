import { ScheduleAlreadyRunning, ScheduleNotFoundError, ScheduleOverlapPolicy, WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import { taskQueue, workflowIds } from '@vp/contracts';
import type { LinkEmailsInput, WebhookDeliveryInput } from './webhook-definitions.ts';

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

/**
 * Starts a delivery's workflow unless it was ever started: the id is the delivery's, and a
 * finished run is never started again, so publishing may be retried freely.
 */
export async function startWebhookDelivery(client: Client, deliveryId: string, settings: Settings): Promise<void> {
  await startOnce(client, 'webhookDeliveryWorkflow', workflowIds.webhookDelivery(deliveryId), settings.taskQueuePrefix, [deliveryInput(deliveryId, settings)], { eager: settings.eager });
}

/**
 * Starts a delivery's workflow again, from attempt `firstAttempt`, when its last run ended
 * without it (terminated): refused, and nothing done, while a run is open.
 */
export function restartWebhookDelivery(client: Client, deliveryId: string, firstAttempt: number, settings: Settings): Promise<boolean> {
  const input = { ...deliveryInput(deliveryId, settings), firstAttempt };
  return startOnce(client, 'webhookDeliveryWorkflow', workflowIds.webhookDelivery(deliveryId), settings.taskQueuePrefix, [input], { reuse: WorkflowIdReusePolicy.ALLOW_DUPLICATE });
}

function deliveryInput(deliveryId: string, settings: Settings): WebhookDeliveryInput {
  return { deliveryId, retryScheduleMs: [...settings.retryScheduleMs], timeoutMs: settings.timeoutMs };
}

/** Starts the e-mails of one pitch version once. */
export async function startLinkEmails(client: Client, input: LinkEmailsInput, settings: { taskQueuePrefix: string }): Promise<void> {
  await startOnce(client, 'linkEmailsWorkflow', workflowIds.linkEmails(input.productionId, input.pitchVersion), settings.taskQueuePrefix, [input]);
}

/**
 * Starts a workflow under its id, once: false when a run of it is refused by `reuse` (by default,
 * any run ever started; with ALLOW_DUPLICATE, one still open).
 */
async function startOnce(
  client: Client, workflow: string, workflowId: string, prefix: string, args: unknown[],
  options: { eager?: boolean; reuse?: WorkflowIdReusePolicy } = {},
): Promise<boolean> {
  try {
    await client.workflow.start(workflow, {
      workflowId,
      taskQueue: taskQueue('webhooks', prefix),
      args,
      workflowIdReusePolicy: options.reuse ?? WorkflowIdReusePolicy.REJECT_DUPLICATE,
      requestEagerStart: options.eager ?? false,
    });
    return true;
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    return false;
  }
}

/**
 * The schedule that runs the outbox sweep every `intervalMs` on the webhooks task queue: created
 * by the first worker to start, brought to the configured interval by every later one. One per
 * deployment, whatever the number of workers; a sweep still running when the next is due is skipped.
 * An interval of 0 (no sweep) removes the schedule a deployment had.
 */
export async function ensureOutboxSweep(client: Client, settings: { taskQueuePrefix: string; intervalMs: number }): Promise<void> {
  const scheduleId = workflowIds.outboxSweep(settings.taskQueuePrefix);
  if (settings.intervalMs <= 0) {
    await client.schedule.getHandle(scheduleId).delete().catch((error: unknown) => {
      if (!(error instanceof ScheduleNotFoundError)) throw error;
    });
    return;
  }
  const schedule = {
    spec: { intervals: [{ every: settings.intervalMs }] },
    action: { type: 'startWorkflow' as const, workflowType: 'webhookOutboxSweepWorkflow', taskQueue: taskQueue('webhooks', settings.taskQueuePrefix), args: [] },
    policies: { overlap: ScheduleOverlapPolicy.SKIP },
  };
  try {
    await client.schedule.create({ scheduleId, ...schedule });
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
    await client.schedule.getHandle(scheduleId).update((previous) => ({ ...previous, ...schedule }));
  }
}
