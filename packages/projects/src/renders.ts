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

/** The row a render workflow starts from; its project and export ids are fixed here for every try. */
export function createRender(db: Db, input: NewRender): Promise<RenderRow> {
  return db.render.create({ data: { ...input, projectId: randomUUID(), exportId: randomUUID() } });
}

/** A render of this account, or null (another account's render is not found either). */
export function findRender(db: Db, id: string, accountId: string): Promise<RenderRow | null> {
  return db.render.findFirst({ where: { id, accountId } });
}

/** The API's view. `projectId` appears once the render farm has made the project. */
export function toRender(row: RenderRow, videoUrl: string | null): Render {
  return {
    id: row.id,
    status: row.status,
    progress: Math.min(1, Math.max(0, row.progress)),
    projectId: row.status === 'queued' ? null : row.projectId,
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
