import { proxyActivities } from '@temporalio/workflow';

/** The baseline: a minimal workflow with one activity. */
export async function baselineWorkflow(): Promise<void> {
  const { touch } = proxyActivities<{ touch(): Promise<void> }>({ startToCloseTimeout: '30 seconds' });
  await touch();
}
