import type { DiscardVideoInput } from './definitions.ts';
import { renderFarmSteps } from './render-farm.ts';

/**
 * What a production that was not delivered (it failed, or was cancelled while its video was
 * made) leaves of its video: nothing. Started by its workflow on the render task queue, where
 * the blob store is, and tried until it passes; the production's own workflow ends at once.
 */
export async function discardVideoWorkflow({ exportId, reason }: DiscardVideoInput): Promise<void> {
  await renderFarmSteps().discardVideo({ exportId, reason });
}
