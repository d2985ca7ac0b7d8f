import { requireWorkspace } from '@vp/accounts';
import { DomainError, type Caller } from '@vp/contracts';
import type { Db } from '@vp/db';
import { deliveredProject } from '@vp/projects';

const NOWHERE = 'There is no project at this address.';

/**
 * A delivered production's project, for a member of its workspace: `not_found` for anyone else
 * (and for a project not delivered, or refunded), never saying it exists; `forbidden` when
 * `write` is asked of a viewer. Members' roles are the workspace's rule (`requireWorkspace`).
 */
export async function memberProject(db: Db, caller: Caller, projectId: string, options: { write: boolean }) {
  const found = await deliveredProject(db, projectId);
  if (!found) throw new DomainError('not_found', NOWHERE);
  try {
    const access = await requireWorkspace(db, caller.accountId, found.workspaceId, options);
    return { found, canWrite: access.canWrite };
  } catch (error) {
    if (error instanceof DomainError && error.code === 'not_found') throw new DomainError('not_found', NOWHERE);
    throw error;
  }
}
