import type { Db, Export } from '@vp/db';

/** Creates the export row once; every try of the same render finds the same row. */
export async function ensureExport(db: Db, input: { id: string; projectId: string; version: number }): Promise<Export> {
  await db.export.createMany({ data: [{ id: input.id, projectId: input.projectId, version: input.version }], skipDuplicates: true });
  return db.export.findUniqueOrThrow({ where: { id: input.id } });
}

export async function startExport(db: Db, exportId: string): Promise<void> {
  await db.export.updateMany({ where: { id: exportId, status: { in: ['queued', 'rendering', 'failed'] } }, data: { status: 'rendering', error: null } });
}

/**
 * Finishes an export with one try's files, unless another try finished it first: then its
 * files stay the export's, and `applied` is false (the caller removes its own). An export given
 * up (failed) stays failed: the give-up removes what its tries uploaded, and a try it gave up
 * on that finishes late must not record files that may be gone.
 */
export async function finishExport(
  db: Db,
  exportId: string,
  files: { video: string; poster: string },
  result: { bytes: number; durationMs: number; width: number; height: number },
): Promise<{ export: Export; applied: boolean }> {
  const { count } = await db.export.updateMany({
    where: { id: exportId, status: 'rendering' },
    data: { status: 'done', videoKey: files.video, posterKey: files.poster, ...result, error: null, finishedAt: new Date() },
  });
  return { export: await db.export.findUniqueOrThrow({ where: { id: exportId } }), applied: count > 0 };
}

/** A failed export keeps its reason; one that finished stays finished. Answers whether it is failed now. */
export async function failExport(db: Db, exportId: string, error: string): Promise<boolean> {
  const { count } = await db.export.updateMany({ where: { id: exportId, status: { not: 'done' } }, data: { status: 'failed', error, finishedAt: new Date() } });
  return count > 0;
}

/**
 * The export of a stored version (a re-export) whose workflow should be started: a new one, or
 * the one already queued, whose workflow may never have started (the gateway stopped after
 * queueing it; starting it again is harmless). Null while one is rendering: one at a time. The
 * project's row is locked while checking, so two requests at once queue one export.
 */
export async function queueExport(db: Db, input: { id: string; projectId: string; version: number }): Promise<Export | null> {
  return db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM projects WHERE id = ${input.projectId}::uuid FOR UPDATE`;
    const pending = await tx.export.findFirst({ where: { projectId: input.projectId, version: input.version, status: { in: ['queued', 'rendering'] } } });
    if (pending) return pending.status === 'queued' ? pending : null;
    return tx.export.create({ data: { id: input.id, projectId: input.projectId, version: input.version } });
  });
}
