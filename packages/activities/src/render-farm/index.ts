import { failRender as markRenderFailed, renderImagesPrefix } from '@vp/projects';
import type { RenderFarmActivities, RenderFarmSteps } from '@vp/workflows/definitions';
import type { RenderFarmDeps } from './deps.ts';
import { renderImages } from './image-render.ts';
import { discardVideo, giveUpExport } from './produce.ts';
import { makeVideo } from './production-video.ts';
import { renderTry } from './render-try.ts';
import { abandonRender, removeRenderImages } from './sweep-unstarted-renders.ts';

export { mediaFetcher } from './media.ts';
export { SWEEP_EVERY_MS, sweepWorkDir } from './sweep-work-dir.ts';
export { sweepUnstartedRenders } from './sweep-unstarted-renders.ts';
export type { RenderFarmDeps } from './deps.ts';

/** The render farm's activities and its workflows' steps. Every one may run again after a crash. */
export function createRenderFarmActivities(deps: RenderFarmDeps): RenderFarmActivities & RenderFarmSteps {
  const { db, blobs } = deps;
  const tools = renderTry(deps);
  const { patiently, produce, fetcher } = tools;
  return {
    makeVideo: (input) => makeVideo(deps, tools, input),
    renderImages: (input) => renderImages(deps, tools, input),

    async exportVersion({ exportId }) {
      const made = await patiently(() => db.export.findUniqueOrThrow({ where: { id: exportId }, include: { project: true, projectVersion: true } }));
      if (made.status === 'done') return;
      const render = made.project.productionId
        ? null : await patiently(() => db.render.findFirst({ where: { projectId: made.projectId }, select: { id: true } }));
      await produce({ exportId, composition: made.projectVersion.composition, fetchMedia: fetcher(render ? renderImagesPrefix(render.id) : undefined) });
    },

    async failRender({ renderId, error }) {
      const render = await db.render.findUniqueOrThrow({ where: { id: renderId } });
      await markRenderFailed(db, renderId, error);
      await giveUpExport(deps, render.exportId, error);
      await removeRenderImages(blobs, renderId);
    },

    async failExport({ exportId, error }) {
      await giveUpExport(deps, exportId, error);
    },

    async discardVideo({ exportId, reason }) {
      await discardVideo(deps, exportId, reason);
    },

    async abandonRender({ renderId }) {
      await abandonRender(deps, renderId);
    },
  };
}
export { createStoryboardActivities, type StoryboardDeps } from './storyboard.ts';
