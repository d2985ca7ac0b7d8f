import { continueAsNew, proxyLocalActivities, sleep, workflowInfo } from '@temporalio/workflow';
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
  for (let attempt = input.firstAttempt ?? 1; ; attempt++) {
    const retryInMs = input.retryScheduleMs[attempt - 1] ?? null;
    const make = () => attemptDelivery({ deliveryId: input.deliveryId, attempt, retryInMs });
    let result = await make();
    // Held while webhooks are switched off on the server: the same attempt, after the schedule's
    // first wait, until they are back on. A long switch-off starts the workflow afresh now and
    // then, so that its history stays short.
    while (result.held) {
      if (workflowInfo().historyLength > HELD_HISTORY_LIMIT) await continueAsNew<typeof webhookDeliveryWorkflow>({ ...input, firstAttempt: attempt });
      await sleep(Math.max(input.retryScheduleMs[0] ?? HELD_RECHECK_MS, HELD_RECHECK_MIN_MS));
      result = await make();
    }
    if (result.done || retryInMs === null) return 'done';
    await sleep(retryInMs);
  }
}

/** A held delivery checks the switch again this often when the schedule has no first wait. */
const HELD_RECHECK_MS = 60_000;
/** And never more often than this: a schedule may start with a wait of 0. */
const HELD_RECHECK_MIN_MS = 1000;
/** Events in a held delivery's history before it continues as new (each check adds about six). */
const HELD_HISTORY_LIMIT = 1000;
