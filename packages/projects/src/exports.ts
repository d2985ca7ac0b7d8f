import type { Db, Export } from '@vp/db';
import { exportKeys } from './urls.ts';

/** Creates the export row once; every try of the same render finds the same row. */
export async function ensureExport(db: Db, input: { id: string; projectId: string; version: number }): Promise<Export> {
  await db.export.createMany({ data: [{ id: input.id, projectId: input.projectId, version: input.version }], skipDuplicates: true });
  return db.export.findUniqueOrThrow({ where: { id: input.id } });
}

export async function startExport(db: Db, exportId: string): Promise<void> {
  await db.export.updateMany({ where: { id: exportId, status: { in: ['queued', 'rendering', 'failed'] } }, data: { status: 'rendering', error: null } });
}

export async function finishExport(
  db: Db,
  exportId: string,
  result: { bytes: number; durationMs: number; width: number; height: number },
): Promise<Export> {
  const keys = exportKeys(exportId);
  return db.export.update({
    where: { id: exportId },
    data: { status: 'done', videoKey: keys.video, posterKey: keys.poster, ...result, error: null, finishedAt: new Date() },
  });
}

/** A failed export keeps its reason; one that finished stays finished. */
export async function failExport(db: Db, exportId: string, error: string): Promise<void> {
  await db.export.updateMany({ where: { id: exportId, status: { not: 'done' } }, data: { status: 'failed', error, finishedAt: new Date() } });
}

/** Queues a new export of a stored version (a re-export): the render farm picks it up. */
export async function queueExport(db: Db, input: { id: string; projectId: string; version: number }): Promise<Export> {
  return db.export.create({ data: { id: input.id, projectId: input.projectId, version: input.version } });
}
