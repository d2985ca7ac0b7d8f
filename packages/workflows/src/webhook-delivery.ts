import { proxyLocalActivities, sleep } from '@temporalio/workflow';
import { ATTEMPT_MARGIN_MS } from '@vp/contracts/webhook-attempt';
import type { WebhookActivities, WebhookDeliveryInput } from './webhook-definitions.ts';

/**
 * One event to one endpoint: attempt at once, then after each wait of the schedule, until
 * a 2xx or the last attempt. The activity records every attempt and never repeats one that
 * was recorded.
 *
 * Attempts run as local activities, in the worker that runs the workflow: no round trip
 * through the server's activity queue between the stage change and the receiver. An attempt
 * replayed after a worker crash finds its claim in the database and is not sent twice.
 */
export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<'done'> {
  const { attemptDelivery } = proxyLocalActivities<WebhookActivities>({
    // The receiver's time to answer, plus room for the database writes around it: after both, an
    // attempt whose outcome was not recorded is made again.
    startToCloseTimeout: input.timeoutMs + ATTEMPT_MARGIN_MS,
    // The receiver's failures are recorded and follow the schedule below; the activity itself
    // fails only when our side does (the database), and is retried until it is back: giving up
    // would leave the delivery pending with nothing to move it.
    retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
  });
  for (let attempt = 1; ; attempt++) {
    const retryInMs = input.retryScheduleMs[attempt - 1] ?? null;
    const { done } = await attemptDelivery({ deliveryId: input.deliveryId, attempt, retryInMs });
    if (done || retryInMs === null) return 'done';
    await sleep(retryInMs);
  }
}
