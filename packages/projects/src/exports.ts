import type { Db, Export } from '@vp/db';
import { exportsUnderWay, lockProject, MAX_EXPORTS_UNDER_WAY } from './projects.ts';

/** Creates the export row once; every try of the same render finds the same row. */
export async function ensureExport(db: Db, input: { id: string; projectId: string; version: number }): Promise<Export> {
  await db.export.createMany({ data: [{ id: input.id, projectId: input.projectId, version: input.version }], skipDuplicates: true });
  return db.export.findUniqueOrThrow({ where: { id: input.id } });
}

/** A try takes the export (`take` names it): being made again, and this try's to give up. */
export async function startExport(db: Db, exportId: string, take?: string): Promise<void> {
  await db.export.updateMany({ where: { id: exportId, status: { in: ['queued', 'rendering', 'failed'] } }, data: { status: 'rendering', error: null, take } });
}

/**
 * Finishes an export with one try's files, unless another try finished it first: then its
 * files stay the export's, and `applied` is false (the caller removes its own). An export given
 * up (failed) stays failed: the give-up removes what its tries uploaded, and a try it gave up
 * on that finishes late must not record files that may be gone. Safe to call again.
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
  const row = await db.export.findUniqueOrThrow({ where: { id: exportId } });
  // Finishing again with the same files (the first call committed, but its answer was lost) is the same finish.
  return { export: row, applied: count > 0 || (row.status === 'done' && row.videoKey === files.video) };
}

/**
 * Fails an export, unless it finished. With `take`, a try's give-up: only while that try is the
 * one making it (a try given up by the server, told so only once the next try has started,
 * leaves the export to that one), and a reason given already stays. Without, the workflow's
 * word, which states the reason last. Answers whether it is failed now (with `take`, still that
 * try's), so that a give-up retried after a crash still tidies up.
 */
export async function failExport(db: Db, exportId: string, error: string, take?: string): Promise<boolean> {
  const ours = take === undefined ? {} : { take };
  const { count } = await db.export.updateMany({
    where: { id: exportId, status: { in: take === undefined ? ['queued', 'rendering', 'failed'] : ['queued', 'rendering'] }, ...ours },
    data: { status: 'failed', error, finishedAt: new Date() },
  });
  return count > 0 || (take !== undefined && (await db.export.count({ where: { id: exportId, status: 'failed', take } })) > 0);
}

/**
 * Fails an export whatever its state, finished too: its production was not delivered (it
 * failed, or was cancelled while its video was being made), so nothing of it may be served.
 * A reason it failed with already stays.
 */
export async function discardExport(db: Db, exportId: string, error: string): Promise<void> {
  await db.export.updateMany({ where: { id: exportId, status: { not: 'failed' } }, data: { status: 'failed', error, finishedAt: new Date() } });
  await db.export.updateMany({ where: { id: exportId }, data: { videoKey: null, posterKey: null } });
}

/**
 * The export of a stored version (a re-export) whose workflow should be started: a new one, or
 * the one already queued, whose workflow may never have started (the gateway stopped after
 * queueing it; starting it again is harmless). Null while one is rendering: one at a time;
 * `busy` while the project has as many exports under way as it may. The project's row is
 * locked while checking, so two requests at once queue one export.
 */
export async function queueExport(db: Db, input: { id: string; projectId: string; version: number }): Promise<Export | 'busy' | null> {
  return db.$transaction(async (tx) => {
    await lockProject(tx, input.projectId);
    const pending = await tx.export.findFirst({ where: { projectId: input.projectId, version: input.version, status: { in: ['queued', 'rendering'] } } });
    if (pending) return pending.status === 'queued' ? pending : null;
    if (await exportsUnderWay(tx, input.projectId) >= MAX_EXPORTS_UNDER_WAY) return 'busy';
    return tx.export.create({ data: { id: input.id, projectId: input.projectId, version: input.version } });
  });
}
