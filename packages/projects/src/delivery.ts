import type { Delivery } from '@vp/contracts';
import type { DbOrTx } from '@vp/db';
import { editUrl, shareUrl } from './urls.ts';

/**
 * A production's delivery, from the finished export of its video: the share page, the editable
 * project, when it was finished. Made from ids when the production is delivered, so that the
 * addresses (capabilities, as anyone holding them sees the video) never travel through a workflow.
 */
export async function deliveryOf(db: DbOrTx, appUrl: string, exportId: string): Promise<Delivery> {
  const made = await db.export.findUniqueOrThrow({ where: { id: exportId }, select: { projectId: true, finishedAt: true } });
  return {
    shareUrl: shareUrl(appUrl, exportId), projectId: made.projectId, editUrl: editUrl(appUrl, made.projectId), exportId,
    deliveredAt: (made.finishedAt ?? new Date()).toISOString(),
  };
}
