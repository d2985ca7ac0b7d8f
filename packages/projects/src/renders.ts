import { randomUUID } from 'node:crypto';
import type { Render, RenderResolution } from '@vp/contracts';
import type { Db, Render as RenderRow } from '@vp/db';

export type NewRender = {
  id: string;
  accountId: string;
  resolution: RenderResolution;
  background: 'black' | 'white';
  appName: string | null;
  accent: string | null;
  imageKeys: string[];
};

/** Why a render that was recorded but never started has failed (its caller was answered 503, or not at all). */
export const RENDER_NOT_STARTED = 'The render could not be started.';

/** The row a render workflow starts from; its project and export ids are fixed here for every try. */
export function createRender(db: Db, input: NewRender): Promise<RenderRow> {
  return db.render.create({ data: { ...input, projectId: randomUUID(), exportId: randomUUID() } });
}

/** A render with whether its project exists yet (its id is chosen up front, the project made later). */
export type RenderRecord = RenderRow & { projectMade: boolean };

/** A render of this account, or null (another account's render is not found either). */
export async function findRender(db: Db, id: string, accountId: string): Promise<RenderRecord | null> {
  const row = await db.render.findFirst({ where: { id, accountId } });
  if (!row) return null;
  // The render farm's first try makes the project: a render that never started (or not yet) has none.
  const project = await db.project.findUnique({ where: { id: row.projectId }, select: { id: true } });
  return { ...row, projectMade: project !== null };
}

/** The API's view. `projectId` appears once the render farm has made the project, never before. */
export function toRender(row: RenderRecord, videoUrl: string | null): Render {
  return {
    id: row.id,
    status: row.status,
    progress: Math.min(1, Math.max(0, row.progress)),
    projectId: row.projectMade ? row.projectId : null,
    resolution: row.resolution as RenderResolution,
    error: row.error,
    ...(row.status === 'done' && videoUrl ? { videoUrl } : {}),
  };
}

/** Progress only moves forward, and never for a render that has ended. */
export async function renderProgress(db: Db, id: string, progress: number): Promise<void> {
  await db.render.updateMany({
    where: { id, status: { in: ['queued', 'rendering'] }, progress: { lt: progress } },
    data: { status: 'rendering', progress },
  });
}

export async function startRender(db: Db, id: string): Promise<void> {
  await db.render.updateMany({ where: { id, status: { in: ['queued', 'rendering'] } }, data: { status: 'rendering' } });
}

export async function finishRender(db: Db, id: string): Promise<void> {
  await db.render.updateMany({ where: { id, status: { in: ['queued', 'rendering'] } }, data: { status: 'done', progress: 1, error: null } });
}

export async function failRender(db: Db, id: string, error: string): Promise<void> {
  await db.render.updateMany({ where: { id, status: { in: ['queued', 'rendering'] } }, data: { status: 'failed', error } });
}

/**
 * Renders recorded before `before` and still queued whose workflow the sweep has not yet found:
 * most wait for a free render worker, but one whose gateway stopped between recording it and
 * starting its workflow never will. Oldest first, `limit` at most.
 */
export async function findUnconfirmedRenders(db: Db, before: Date, limit: number): Promise<Array<{ id: string }>> {
  return db.render.findMany({
    where: { status: 'queued', startConfirmedAt: null, createdAt: { lt: before } },
    orderBy: { createdAt: 'asc' }, take: limit, select: { id: true },
  });
}

/**
 * The render's workflow has started: from now on it alone writes the render (the gateway gives up
 * only on a render no workflow has claimed), and the sweep looks at it no more. False when the
 * render had already ended: given up before any workflow claimed it.
 */
export async function confirmRenderStarted(db: Db, id: string): Promise<boolean> {
  await db.render.updateMany({ where: { id, startConfirmedAt: null, status: { in: ['queued', 'rendering'] } }, data: { startConfirmedAt: new Date() } });
  return (await db.render.count({ where: { id, startConfirmedAt: { not: null }, status: { in: ['queued', 'rendering', 'done'] } } })) > 0;
}

/**
 * Fails a render that no workflow has claimed (its start failed, or its answer was lost): the
 * one write of a render outside its workflow, and only before the workflow's first word.
 * Whether it is given up now.
 */
export async function giveUpUnclaimedRender(db: Db, id: string): Promise<boolean> {
  const { count } = await db.render.updateMany({ where: { id, status: 'queued', startConfirmedAt: null }, data: { status: 'failed', error: RENDER_NOT_STARTED } });
  return count > 0;
}

/** The blob key of a finished render's video; null for a render unknown or not done. */
export async function finishedRenderVideo(db: Db, id: string): Promise<string | null> {
  const row = await db.render.findUnique({ where: { id }, select: { status: true, exportId: true } });
  if (row?.status !== 'done') return null;
  return (await db.export.findUnique({ where: { id: row.exportId }, select: { videoKey: true } }))?.videoKey ?? null;
}
