import { proxyActivities } from '@temporalio/workflow';
import type { WebhookActivities } from './webhook-definitions.ts';

/**
 * The outbox sweep, run by a schedule (see `ensureOutboxSweep`). An event's deliveries are
 * recorded in a transaction, then their workflows started; a step retries its starts until they
 * pass, but a start lost for good (a `production.progress` event's, recorded by the render outside
 * any step) would leave a delivery pending forever, as would a delivery workflow terminated
 * between attempts. This starts those again, so every recorded event reaches its receivers.
 */
export async function webhookOutboxSweepWorkflow(): Promise<number> {
  const { sweepDeliveries } = proxyActivities<WebhookActivities>({ startToCloseTimeout: '2 minutes', retry: { maximumAttempts: 3 } });
  const { started, restarted } = await sweepDeliveries();
  return started + restarted;
}
