import type { BlobStore } from '@vp/blobs';
import type { Db } from '@vp/db';
import { confirmRenderStarted, failRender, findUnconfirmedRenders, RENDER_NOT_STARTED, renderImagesPrefix } from '@vp/projects';
import type { RenderFarmWorkflows } from '@vp/temporal-client';

/**
 * How long a render may stay queued before the sweep asks whether its workflow ever started: far
 * longer than the request that records it, its upload and image writes included, can last.
 */
export const UNSTARTED_AFTER_MS = 60 * 60 * 1000;

/** Renders looked at per sweep; a longer backlog waits for the next. */
const BATCH = 500;

/**
 * Abandons the renders recorded over `olderThanMs` ago whose workflow never started (their
 * gateway stopped in between, so their caller never heard of them): each is failed and its
 * images removed, by a workflow started under the render's own id. Where that id is taken, the
 * render's workflow did start: still running, it waits for a render worker and is looked at no
 * more; ended with the render still queued (stopped by hand), nothing will make it, and the sweep
 * abandons it itself. Returns the ids of the renders abandoned.
 */
export async function sweepUnstartedRenders(
  deps: { db: Db; blobs: BlobStore; workflows: RenderFarmWorkflows },
  options: { olderThanMs?: number } = {},
): Promise<string[]> {
  const before = new Date(Date.now() - (options.olderThanMs ?? UNSTARTED_AFTER_MS));
  const abandoned: string[] = [];
  for (const { id } of await findUnconfirmedRenders(deps.db, before, BATCH)) {
    if (await deps.workflows.abandonRender(id)) {
      abandoned.push(id);
    } else if (!(await deps.workflows.renderWorkflowEnded(id))) {
      await confirmRenderStarted(deps.db, id);
    } else if ((await deps.db.render.findUnique({ where: { id }, select: { status: true } }))?.status === 'queued') {
      await abandonRender(deps, id);
      abandoned.push(id);
    }
  }
  return abandoned;
}

/** Fails a render that will never be made, and removes every file under its folder, a half-written upload's too. */
export async function abandonRender(deps: { db: Db; blobs: BlobStore }, renderId: string): Promise<void> {
  // The files first: a render left queued by a failed delete is found again by the next sweep.
  await removeRenderImages(deps.blobs, renderId);
  await failRender(deps.db, renderId, RENDER_NOT_STARTED);
}

/** Removes a render's uploaded images: once it has failed, nothing reads them again. */
export async function removeRenderImages(blobs: BlobStore, renderId: string): Promise<void> {
  const images = await blobs.list(renderImagesPrefix(renderId));
  await Promise.all(images.map((key) => blobs.delete(key)));
}
