import { CancellationScope } from '@temporalio/workflow';
import type { RenderStatus } from '@vp/contracts';
import type { RenderWorkflowInput } from './definitions.ts';
import { isRenderFailure, renderFailure, renderFarm } from './render-farm.ts';

/** One call of the render API: images in, a video out. The gateway waits on its result. */
export async function renderWorkflow({ renderId, heartbeatTimeoutMs }: RenderWorkflowInput): Promise<RenderStatus> {
  const { farm, steps } = renderFarm(heartbeatTimeoutMs);
  try {
    await farm.renderImages({ renderId });
    return 'done';
  } catch (error) {
    if (!isRenderFailure(error)) throw error;
    // Recorded even when the workflow was cancelled (through Temporal): the render must not stay unfinished.
    await CancellationScope.nonCancellable(() => steps.failRender({ renderId, error: renderFailure(error, { medium: 'An image', then: 'Please try again.' }) }));
    return 'failed';
  }
}
