import { renderFarmSteps } from './render-farm.ts';

/**
 * What becomes of a render that was recorded but whose workflow never started (its gateway
 * stopped in between; the caller never heard of it): it fails, and its images go. Started by the
 * unstarted-render sweep under the render's own workflow id, so that a late start of the render
 * itself is refused, and the render is either made or abandoned, never both.
 */
export async function abandonRenderWorkflow({ renderId }: { renderId: string }): Promise<void> {
  await renderFarmSteps().abandonRender({ renderId });
}
