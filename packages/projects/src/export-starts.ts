import type { Db, Export } from '@vp/db';
import type { RenderFarmWorkflows } from '@vp/temporal-client';
import { isAlreadyStarted } from '@vp/temporal-client';

/** On a re-export whose workflow could not be started; it stays queued until asked again. */
export const EXPORT_NOT_STARTED = 'Not started: the render farm could not be reached. Export this version again to retry.';

/**
 * Starts the workflow of a queued export. Unless it could not be started, the export is on its
 * way. If it could not, it may have started all the same (an answer lost on the way): it stays
 * queued with a note saying so, written only while no workflow has taken it up (which clears
 * it), and asking again starts it under the same workflow id, or finds it started.
 * Whether it is on its way is the answer.
 */
export async function startQueuedExport(
  deps: { db: Db; workflows: RenderFarmWorkflows }, made: Export, workspaceId: string, onFailure?: (error: unknown) => void,
): Promise<boolean> {
  let note: string | null = null;
  try {
    await deps.workflows.startExport({ exportId: made.id, workspaceId });
  } catch (error) {
    if (!isAlreadyStarted(error)) {
      note = EXPORT_NOT_STARTED;
      onFailure?.(error);
    }
  }
  if (note || made.error) await deps.db.export.updateMany({ where: { id: made.id, status: 'queued' }, data: { error: note } });
  return note === null;
}
