import { DomainError, Role, type Caller } from '@vp/contracts';
import type { Db } from '@vp/db';
import { ownerOf, memberOf } from './access.ts';
import { createLinkToken } from './sign-in.ts';
import { emailAddress, idOrNotFound } from './validate.ts';

/**
 * An invitation's link lives 7 days, as a greenlight link does: people read invitations later
 * than they ask for sign-in links. Once it has expired, the invitation still stands: signing in
 * with the address (a link asked for on the sign-in page) accepts it.
 */
export const INVITATION_LINK_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * An owner invites an address with a role: a pending invitation, and a sign-in link for the
 * front door to e-mail. A new invitation of the same address replaces the one before.
 */
export async function inviteMember(db: Db, caller: Caller, input: { workspaceId: string; email: string; role: string; now?: Date }) {
  const now = input.now ?? new Date();
  const workspace = await ownerOf(db, caller, input.workspaceId);
  const email = emailAddress(input.email);
  const role = Role.safeParse(input.role);
  if (!role.success) throw DomainError.invalid('role', 'Choose a role: owner, editor or viewer.');
  const member = await db.membership.findFirst({ where: { workspaceId: workspace.workspaceId, account: { email } }, select: { accountId: true } });
  if (member) throw DomainError.invalid('email', `${email} is a member of this workspace already.`);
  return db.$transaction(async (tx) => {
    await tx.invitation.updateMany({ where: { workspaceId: workspace.workspaceId, email, acceptedAt: null, revokedAt: null }, data: { revokedAt: now } });
    const invitation = await tx.invitation.create({
      data: { workspaceId: workspace.workspaceId, email, role: role.data, invitedBy: caller.accountId, createdAt: now },
    });
    const link = await createLinkToken(tx, { email, now, lifetimeMs: INVITATION_LINK_MS, invitationId: invitation.id });
    const inviter = await tx.account.findUniqueOrThrow({ where: { id: caller.accountId }, select: { name: true, email: true } });
    return { invitation, link, workspaceName: workspace.name, inviterName: inviter.name ?? inviter.email };
  });
}

/** The workspace's invitations not yet accepted or withdrawn, newest first; any member may read them. */
export async function pendingInvitations(db: Db, caller: Caller, workspaceId: string) {
  const workspace = await memberOf(db, caller, workspaceId);
  return db.invitation.findMany({
    where: { workspaceId: workspace.workspaceId, acceptedAt: null, revokedAt: null },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: { id: true, email: true, role: true, createdAt: true },
  });
}

/** An owner withdraws a pending invitation: its link stops working. */
export async function withdrawInvitation(db: Db, caller: Caller, input: { workspaceId: string; invitationId: string; now?: Date }): Promise<void> {
  const workspace = await ownerOf(db, caller, input.workspaceId);
  const { count } = await db.invitation.updateMany({
    where: { id: idOrNotFound(input.invitationId, 'invitation'), workspaceId: workspace.workspaceId, acceptedAt: null, revokedAt: null },
    data: { revokedAt: input.now ?? new Date() },
  });
  if (!count) throw new DomainError('not_found', 'No such invitation: it was accepted or withdrawn already.');
}
