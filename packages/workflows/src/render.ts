import { ActivityFailure } from '@temporalio/workflow';
import type { RenderStatus } from '@vp/contracts';
import type { RenderWorkflowInput } from './definitions.ts';
import { renderFailure, renderFarm } from './render-farm.ts';

/** One call of the render API: images in, a video out. The gateway waits on its result. */
export async function renderWorkflow({ renderId, heartbeatTimeoutMs }: RenderWorkflowInput): Promise<RenderStatus> {
  const { farm, steps } = renderFarm(heartbeatTimeoutMs);
  try {
    await farm.renderImages({ renderId });
    return 'done';
  } catch (error) {
    if (!(error instanceof ActivityFailure)) throw error;
    await steps.failRender({ renderId, error: renderFailure(error, { medium: 'An image', then: 'Please try again.' }) });
    return 'failed';
  }
}
