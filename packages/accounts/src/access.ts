import { DomainError, type Caller } from '@vp/contracts';
import type { DbOrTx } from '@vp/db';
import { workspaceAccess, type WorkspaceAccess } from './accounts.ts';
import { idOrNotFound } from './validate.ts';

/** The caller's access to a workspace; one it is not a member of is not found (DECISIONS: never reveal it exists). */
export async function memberOf(db: DbOrTx, caller: Caller, workspaceId: string): Promise<WorkspaceAccess> {
  const access = await workspaceAccess(db, caller.accountId, idOrNotFound(workspaceId, 'workspace'));
  if (!access) throw new DomainError('not_found', 'No such workspace.');
  return access;
}

/** Owners and editors may write; a viewer is refused (DECISIONS: 403 `forbidden`). */
export async function writerOf(db: DbOrTx, caller: Caller, workspaceId: string): Promise<WorkspaceAccess> {
  const access = await memberOf(db, caller, workspaceId);
  if (!access.canWrite) throw new DomainError('forbidden', 'Viewers may read this workspace but not change it.');
  return access;
}

/** Members and invitations are the owners' to manage. */
export async function ownerOf(db: DbOrTx, caller: Caller, workspaceId: string): Promise<WorkspaceAccess> {
  const access = await memberOf(db, caller, workspaceId);
  if (access.role !== 'owner') throw new DomainError('forbidden', 'Only the workspace\'s owners manage its members.');
  return access;
}
