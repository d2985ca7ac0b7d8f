import { proxyLocalActivities } from '@temporalio/workflow';

/** The platform's floor for one delivery: a workflow started eagerly with one no-op local activity. */
export async function emptyDeliveryWorkflow(): Promise<void> {
  const { touch } = proxyLocalActivities<{ touch(): Promise<void> }>({ startToCloseTimeout: '30 seconds' });
  await touch();
}
