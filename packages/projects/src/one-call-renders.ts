import { randomUUID } from 'node:crypto';
import type { BlobStore } from '@vp/blobs';
import { DomainError, type Render, type RenderResolution } from '@vp/contracts';
import type { Db, Render as RenderRow } from '@vp/db';
import type { RenderFarmWorkflows } from '@vp/temporal-client';
import { createRender, findRender, giveUpUnclaimedRender, toRender, type RenderRecord } from './renders.ts';
import { signedRenderVideoUrl } from './signed-url.ts';
import { renderImageKey } from './urls.ts';

/** What the one-call renders API runs on. */
export type OneCallRenderDeps = { db: Db; blobs: BlobStore; workflows: RenderFarmWorkflows };

export type RenderRequest = {
  images: { bytes: Buffer; mime: string; extension: string }[];
  resolution: RenderResolution;
  background: 'black' | 'white';
  appName?: string;
  accent?: string;
};

const cannotStart = () => new DomainError('unavailable', 'Renders cannot be started right now; try again shortly.');

/**
 * Records the render, stores its images and starts its workflow on the render farm. The render
 * is recorded first, so that a gateway stopping midway leaves nothing unrecorded (the render
 * farm's unstarted-render sweep abandons it). A render whose workflow did not start is given up
 * here, unless its workflow claimed it meanwhile (a start whose answer was lost): then it is the
 * workflow's. Its images go with it: a client retrying through an outage would otherwise leave up
 * to 100 MB behind at each try, which no render will ever read.
 */
export async function requestRender(deps: OneCallRenderDeps, accountId: string, request: RenderRequest): Promise<RenderRow> {
  const id = randomUUID();
  const imageKeys = request.images.map((image, i) => renderImageKey(id, i + 1, image.extension));
  const row = await createRender(deps.db, {
    id, accountId, resolution: request.resolution, background: request.background,
    appName: request.appName || null, accent: request.accent || null, imageKeys,
  });
  // Every write settles before any is undone, so none lands after its delete.
  const stored = await Promise.allSettled(request.images.map((image, i) => deps.blobs.put(imageKeys[i]!, image.bytes, { contentType: image.mime })));
  const failed = stored.find((result) => result.status === 'rejected');
  if (failed) {
    await giveUp(deps, id, imageKeys);
    throw failed.reason;
  }
  try {
    await deps.workflows.startRender({ renderId: id, accountId });
  } catch {
    // Temporal unreachable, or the render abandoned meanwhile (a gateway stalled past the sweep's wait).
    if (await giveUp(deps, id, imageKeys)) throw cannotStart();
    // Claimed by its workflow, which did start: it is on its way, unless it was abandoned.
    if ((await deps.db.render.findUnique({ where: { id }, select: { status: true } }))?.status === 'failed') throw cannotStart();
  }
  return row;
}

/**
 * Gives a render up unless a workflow has claimed it (even if the database fails too: the client
 * never saw the id, and a start that did happen finds the render failed, or its images gone).
 */
async function giveUp(deps: OneCallRenderDeps, id: string, imageKeys: string[]): Promise<boolean> {
  const gaveUp = await giveUpUnclaimedRender(deps.db, id).catch(() => true);
  if (gaveUp) await Promise.allSettled(imageKeys.map((key) => deps.blobs.delete(key)));
  return gaveUp;
}

/** The caller's render; another account's is not found. */
export async function readRender(db: Db, accountId: string, id: string): Promise<RenderRecord> {
  const row = await findRender(db, id, accountId);
  if (!row) throw new DomainError('not_found', 'Render not found.');
  return row;
}

/** The API's view, with a video address signed afresh for 24 hours once it is done. */
export function presentRender(settings: { baseUrl: string; urlSecret: string }, row: RenderRecord): Render {
  const videoUrl = row.status === 'done' ? signedRenderVideoUrl({ baseUrl: settings.baseUrl, secret: settings.urlSecret }, row.id) : null;
  return toRender(row, videoUrl);
}
