import type { Db } from '@vp/db';
import { projectWithHistory } from './projects.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A delivered production's project and exports are what its credits paid for. Before that, or for
 * one cancelled or failed (and so refunded), they are not shown: an address answers as an unknown one.
 */
const DELIVERED = 'delivered';

/** A finished export of a delivered production's project: what a share link shows. Null otherwise (a malformed id too). */
export async function finishedSharedExport(db: Db, exportId: string) {
  if (!UUID.test(exportId)) return null;
  const made = await db.export.findUnique({ where: { id: exportId }, include: { project: { include: { production: { select: { stage: true } } } } } });
  return made?.status === 'done' && made.project.production?.stage === DELIVERED ? made : null;
}

/** A delivered production's project with its history (versions newest first). Null otherwise. */
export async function deliveredProject(db: Db, projectId: string) {
  if (!UUID.test(projectId)) return null;
  const found = await projectWithHistory(db, projectId);
  return found?.production?.stage === DELIVERED ? found : null;
}

export type DeliveredProject = NonNullable<Awaited<ReturnType<typeof deliveredProject>>>;
