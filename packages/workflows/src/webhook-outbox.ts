import { proxyActivities } from '@temporalio/workflow';
import type { WebhookActivities } from './webhook-definitions.ts';

/**
 * The outbox sweep, run by a schedule (see `ensureOutboxSweep`). A stage change records its
 * deliveries in its own transaction, then starts their workflows; a start lost for good (the
 * worker died after the commit, Temporal refused it past the step's retries) would leave a
 * delivery pending forever. This starts those, so every recorded event reaches its receivers.
 */
export async function webhookOutboxSweepWorkflow(): Promise<number> {
  const { startUnattemptedDeliveries } = proxyActivities<WebhookActivities>({ startToCloseTimeout: '2 minutes', retry: { maximumAttempts: 3 } });
  return (await startUnattemptedDeliveries()).started;
}
