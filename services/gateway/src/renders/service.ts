import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { BlobStore } from '@vp/blobs';
import type { Config } from '@vp/config';
import { ApiError, workflowIds, type Render } from '@vp/contracts';
import type { Db, Render as RenderRow } from '@vp/db';
import { createRender, failRender, findRender, RENDER_NOT_STARTED, renderImageKey, signedRenderVideoUrl, toRender, type RenderRecord } from '@vp/projects';
import { renderWorkflowStart } from '@vp/workflows/render-start';
import type { RenderRequest } from './form.ts';

export type RenderDeps = { config: Config; db: Db; blobs: BlobStore; temporal: () => Client };

/**
 * Records the render, stores its images and starts its workflow on the render farm. The images
 * of a render that does not start are removed: a client retrying through an outage would
 * otherwise leave up to 100 MB behind at each try, which no render will ever read. The render is
 * recorded first so that a gateway stopping midway leaves nothing unrecorded: the render farm's
 * unstarted-render sweep abandons it and removes its images (`sweepUnstartedRenders`).
 */
export async function startRender(deps: RenderDeps, accountId: string, request: RenderRequest): Promise<RenderRow> {
  const id = randomUUID();
  const imageKeys = request.images.map((image, i) => renderImageKey(id, i + 1, image.extension));
  const row = await createRender(deps.db, {
    id, accountId, resolution: request.resolution, background: request.background,
    appName: request.appName || null, accent: request.accent || null, imageKeys,
  });
  // Every write settles before any is undone, so none lands after its delete.
  const stored = await Promise.allSettled(request.images.map((image, i) => deps.blobs.put(imageKeys[i]!, image.bytes, { contentType: image.mime })));
  const giveUp = async () => {
    // Even if the database fails too: the client never saw the id, and a start that did happen
    // finds the render failed, or its images gone.
    await failRender(deps.db, id, RENDER_NOT_STARTED).catch(() => {});
    await Promise.allSettled(imageKeys.map((key) => deps.blobs.delete(key)));
  };
  const failed = stored.find((result) => result.status === 'rejected');
  if (failed) {
    await giveUp();
    throw failed.reason;
  }
  try {
    await deps.temporal().workflow.start('renderWorkflow', renderWorkflowStart(id, {
      taskQueuePrefix: deps.config.temporal.taskQueuePrefix, heartbeatTimeoutMs: deps.config.render.heartbeatTimeoutMs,
    }));
  } catch {
    // Temporal unreachable, or the render abandoned meanwhile (a gateway stalled past the sweep's wait).
    await giveUp();
    throw ApiError.unavailable('Renders cannot be started right now; try again shortly.');
  }
  return row;
}

/** Holds until the render's workflow ends or `ms` pass, whichever is first; not at all when `ms` is spent. */
export async function waitForRender(deps: RenderDeps, id: string, ms: number): Promise<void> {
  if (ms <= 0) return;
  const client = deps.temporal();
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), ms);
  try {
    await client.withAbortSignal(stop.signal, () => client.workflow.getHandle(workflowIds.render(id)).result());
  } catch {
    // Out of time (or Temporal unreachable): the caller reads the render as it stands.
  } finally {
    clearTimeout(timer);
  }
}

/** The caller's render; another account's is not found. */
export async function readRender(deps: RenderDeps, accountId: string, id: string): Promise<RenderRecord> {
  const row = await findRender(deps.db, id, accountId);
  if (!row) throw new ApiError(404, 'Render not found.', 'not_found');
  return row;
}

/** The API's view, with a video address signed afresh for 24 hours once it is done. */
export function present(deps: RenderDeps, row: RenderRecord): Render {
  const videoUrl = row.status === 'done' ? signedRenderVideoUrl({ baseUrl: deps.config.baseUrl, secret: deps.config.secrets.urls }, row.id) : null;
  return toRender(row, videoUrl);
}
