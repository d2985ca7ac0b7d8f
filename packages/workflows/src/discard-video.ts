import { proxyLocalActivities } from '@temporalio/workflow';
import { STEP_RETRY, type DiscardVideoInput, type RenderFarmSteps } from './definitions.ts';

/**
 * What a production that was not delivered (it failed, or was cancelled while its video was
 * made) leaves of its video: nothing. Started by its workflow on the render task queue, where
 * the blob store is, and tried until it passes; the production's own workflow ends at once.
 */
export async function discardVideoWorkflow({ exportId, reason }: DiscardVideoInput): Promise<void> {
  const { discardVideo } = proxyLocalActivities<RenderFarmSteps>({ startToCloseTimeout: '1 minute', retry: STEP_RETRY });
  await discardVideo({ exportId, reason });
}
