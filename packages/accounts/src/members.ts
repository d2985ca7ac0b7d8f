import { DomainError, Role, type Caller } from '@vp/contracts';
import type { Db } from '@vp/db';
import { memberOf, ownerOf } from './access.ts';
import { idOrNotFound } from './validate.ts';

/** A workspace's members, owners first, then by name or address; any member may read them. */
export async function listMembers(db: Db, caller: Caller, workspaceId: string) {
  const workspace = await memberOf(db, caller, workspaceId);
  const rows = await db.membership.findMany({
    where: { workspaceId: workspace.workspaceId },
    include: { account: { select: { email: true, name: true } } },
  });
  const rank = { owner: 0, editor: 1, viewer: 2 } as const;
  return rows
    .map((m) => ({ accountId: m.accountId, email: m.account.email, name: m.account.name, role: m.role, joinedAt: m.createdAt, isOwner: m.accountId === workspace.ownerId }))
    .sort((a, b) => Number(b.isOwner) - Number(a.isOwner) || rank[a.role] - rank[b.role] || (a.name ?? a.email).localeCompare(b.name ?? b.email));
}

/** The member an owner acts on: never the workspace's owner, whose own membership is fixed. */
async function otherMember(db: Db, caller: Caller, input: { workspaceId: string; accountId: string }) {
  const workspace = await ownerOf(db, caller, input.workspaceId);
  const accountId = idOrNotFound(input.accountId, 'member');
  if (accountId === workspace.ownerId) throw new DomainError('forbidden', 'The owner\'s own membership is fixed.');
  const member = await db.membership.findUnique({ where: { workspaceId_accountId: { workspaceId: workspace.workspaceId, accountId } } });
  if (!member) throw new DomainError('not_found', 'No such member.');
  return member;
}

/** An owner changes another member's role. */
export async function changeRole(db: Db, caller: Caller, input: { workspaceId: string; accountId: string; role: string }): Promise<void> {
  const role = Role.safeParse(input.role);
  if (!role.success) throw DomainError.invalid('role', 'Choose a role: owner, editor or viewer.');
  const member = await otherMember(db, caller, input);
  await db.membership.update({ where: { workspaceId_accountId: { workspaceId: member.workspaceId, accountId: member.accountId } }, data: { role: role.data } });
}

/** An owner removes another member: at once, and the pages of their sessions leave the workspace. */
export async function removeMember(db: Db, caller: Caller, input: { workspaceId: string; accountId: string }): Promise<void> {
  const member = await otherMember(db, caller, input);
  await db.membership.delete({ where: { workspaceId_accountId: { workspaceId: member.workspaceId, accountId: member.accountId } } });
}
