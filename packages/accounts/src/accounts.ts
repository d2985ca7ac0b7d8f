import { canWrite, DomainError, type Caller, type Role } from '@vp/contracts';
import type { Db, DbOrTx, Tx } from '@vp/db';
import { personName } from './validate.ts';

type NewAccount = { email: string; name?: string | null };

/** An account always comes with its personal workspace, which it owns. */
export async function createAccount(db: Db, input: NewAccount) {
  return db.$transaction((tx) => createAccountWithin(tx, input));
}

/** `createAccount` inside the caller's transaction. */
export async function createAccountWithin(tx: Tx, input: NewAccount) {
  const account = await tx.account.create({ data: { email: input.email.toLowerCase(), name: input.name ?? null } });
  const workspace = await tx.workspace.create({
    data: { name: input.name ? `${input.name}'s workspace` : 'Personal', ownerId: account.id, personal: true },
  });
  await tx.membership.create({ data: { workspaceId: workspace.id, accountId: account.id, role: 'owner' } });
  return { account, workspace };
}

/** The caller's own account. */
export function ownAccount(db: Db, caller: Caller) {
  return db.account.findUniqueOrThrow({ where: { id: caller.accountId }, select: { id: true, email: true, name: true, createdAt: true } });
}

/** Names (or renames) the caller; an empty name clears it. */
export async function renameAccount(db: Db, caller: Caller, input: { name: string }): Promise<void> {
  await db.account.update({ where: { id: caller.accountId }, data: { name: personName(input.name) } });
}

export function findAccountByEmail(db: DbOrTx, email: string) {
  return db.account.findUnique({ where: { email: email.toLowerCase() } });
}

export function personalWorkspace(db: DbOrTx, accountId: string) {
  return db.workspace.findFirst({ where: { ownerId: accountId, personal: true } });
}

/** Creates a shared workspace owned by the account. */
export async function createWorkspace(db: Db, input: { ownerId: string; name: string }) {
  return db.$transaction(async (tx) => {
    const workspace = await tx.workspace.create({ data: { name: input.name, ownerId: input.ownerId } });
    await tx.membership.create({ data: { workspaceId: workspace.id, accountId: input.ownerId, role: 'owner' } });
    return workspace;
  });
}

/** Adds or changes a member's role. The owner's own membership is fixed. */
export async function setMember(db: Db, input: { workspaceId: string; accountId: string; role: Role }) {
  return db.membership.upsert({
    where: { workspaceId_accountId: { workspaceId: input.workspaceId, accountId: input.accountId } },
    create: input,
    update: { role: input.role },
  });
}

export type WorkspaceAccess = { workspaceId: string; ownerId: string; name: string; role: Role; canWrite: boolean; personal: boolean; pitchCap: number };

/**
 * The caller's access to a workspace: the named one, or the personal one when none is named.
 * Null when the caller is not a member (callers answer 404, never revealing that it exists).
 */
export async function workspaceAccess(db: DbOrTx, accountId: string, workspaceId?: string): Promise<WorkspaceAccess | null> {
  const membership = await db.membership.findFirst({
    where: workspaceId ? { accountId, workspaceId } : { accountId, workspace: { ownerId: accountId, personal: true } },
    include: { workspace: true },
  });
  if (!membership) return null;
  return {
    workspaceId: membership.workspaceId,
    ownerId: membership.workspace.ownerId,
    name: membership.workspace.name,
    role: membership.role,
    canWrite: canWrite(membership.role),
    personal: membership.workspace.personal,
    pitchCap: membership.workspace.pitchCap,
  };
}

/**
 * The caller's access to the workspace a command targets (personal when none is named):
 * `not_found` when not a member (never revealing that it exists), `forbidden` for a write
 * with view-only access.
 */
export async function requireWorkspace(db: Db, accountId: string, workspaceId: string | undefined, options: { write: boolean }): Promise<WorkspaceAccess> {
  const access = await workspaceAccess(db, accountId, workspaceId);
  if (!access) throw new DomainError('not_found', 'Workspace not found.');
  if (options.write && !access.canWrite) throw viewOnly();
  return access;
}

/** A write refused to a viewer (spec: 403 `forbidden`). */
export const viewOnly = () => new DomainError('forbidden', 'You have view-only access to this workspace.');
