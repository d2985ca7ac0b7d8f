import { ApplicationFailure } from '@temporalio/common';
import { confirmRenderStarted, ensureExport, ensureProject, finishRender, RENDER_NOT_STARTED, renderImagesPrefix, renderProgress, startRender } from '@vp/projects';
import { composeImages, type Resolution } from '@vp/render';
import type { RenderFarmDeps } from './deps.ts';
import type { RenderTry } from './render-try.ts';

/** A one-call render: its images composed into a project once, then rendered, with progress on the render's row. */
export async function renderImages(deps: RenderFarmDeps, { fetcher, patiently, failedTry, produce }: RenderTry, { renderId }: { renderId: string }): Promise<void> {
  const { db } = deps;
  // The render is this workflow's from now on; one given up before (its start had failed) is not made.
  if (!(await patiently(() => confirmRenderStarted(db, renderId)))) {
    throw ApplicationFailure.create({ type: 'RenderGivenUp', message: RENDER_NOT_STARTED, nonRetryable: true });
  }
  const render = await patiently(() => db.render.findUniqueOrThrow({ where: { id: renderId } }));
  if (render.status === 'done') return;
  const workspace = await patiently(() => db.workspace.findFirstOrThrow({
    where: { ownerId: render.accountId }, orderBy: [{ personal: 'desc' }, { createdAt: 'asc' }],
  }));
  const { composition } = await patiently(() => ensureProject(db, {
    id: render.projectId, workspaceId: workspace.id, productionId: null, title: render.appName ?? 'Images',
    compose: () => composeImages({
      images: render.imageKeys.map((key, i) => ({ url: `blob:${key}`, name: `Image ${i + 1}` })),
      resolution: render.resolution as Resolution, background: render.background as 'black' | 'white',
      appName: render.appName, accent: render.accent,
    }),
  })).catch((error: unknown) => {
    throw failedTry(error);
  });
  const made = await patiently(() => ensureExport(db, { id: render.exportId, projectId: render.projectId, version: 1 }));
  if (made.status !== 'done') {
    await patiently(() => startRender(db, renderId));
    // A row write at most every 5% of the way: the API shows progress, the database barely notices.
    let shown = 0;
    await produce({
      exportId: render.exportId, composition, fetchMedia: fetcher(renderImagesPrefix(renderId)),
      onOverall: (overall) => {
        const progress = Math.floor(overall * 20) / 20;
        if (progress <= shown || progress >= 1) return;
        shown = progress;
        void renderProgress(db, renderId, progress).catch(() => {});
      },
    });
  }
  await patiently(() => finishRender(db, renderId));
}
