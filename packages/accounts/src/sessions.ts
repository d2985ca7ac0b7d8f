import { timingSafeEqual } from 'node:crypto';
import { DomainError, type Caller } from '@vp/contracts';
import type { Db, DbOrTx, Tx } from '@vp/db';
import { memberOf } from './access.ts';
import { workspaceAccess, type WorkspaceAccess } from './accounts.ts';
import { hashSecret, randomSecret } from './secrets.ts';
import { idOrNotFound } from './validate.ts';

/** A session ends this long after its last use (DECISIONS: 30 days from the last use). */
export const SESSION_IDLE_MS = 30 * 24 * 60 * 60 * 1000;
/** Its last use is written at most this often: a page load is not a write each time. */
export const SESSION_TOUCH_MS = 60_000;
/** What is kept of a browser's User-Agent, to tell sessions apart in the list. */
const USER_AGENT_MAX = 300;

/** A signed-in browser, as a request finds it. */
export type ActiveSession = {
  id: string;
  accountId: string;
  email: string;
  name: string | null;
  csrfToken: string;
  /** The workspace the pages show; null: the personal one. */
  workspaceId: string | null;
  /** True when this request moved its last use on: the cookie's lifetime is renewed with it. */
  touched: boolean;
};

/**
 * Starts a session for an account, inside the sign-in's transaction: the token for the cookie
 * (only its hash is kept) and the session's CSRF token. Invitations of the account's address
 * still pending are accepted here, whichever way it signed in.
 */
export async function startSession(tx: Tx, input: { accountId: string; workspaceId?: string | null; userAgent?: string | null; now: Date }) {
  const token = randomSecret();
  await acceptInvitations(tx, input.accountId, input.now);
  const session = await tx.session.create({
    data: {
      accountId: input.accountId, tokenHash: hashSecret(token), csrfToken: randomSecret(), workspaceId: input.workspaceId ?? null,
      userAgent: input.userAgent?.slice(0, USER_AGENT_MAX) || null, createdAt: input.now, lastUsedAt: input.now,
    },
  });
  return { token, session };
}

/** Memberships for the account's pending invitations (a member already keeps the role it has). */
async function acceptInvitations(tx: Tx, accountId: string, now: Date): Promise<void> {
  const { email } = await tx.account.findUniqueOrThrow({ where: { id: accountId }, select: { email: true } });
  const pending = await tx.invitation.findMany({ where: { email, acceptedAt: null, revokedAt: null }, orderBy: { createdAt: 'asc' } });
  for (const invitation of pending) {
    await tx.membership.upsert({
      where: { workspaceId_accountId: { workspaceId: invitation.workspaceId, accountId } },
      create: { workspaceId: invitation.workspaceId, accountId, role: invitation.role },
      update: {},
    });
    await tx.invitation.update({ where: { id: invitation.id }, data: { acceptedAt: now } });
  }
}

/**
 * The live session behind a cookie's token, or null. A session unused for 30 days has ended (and
 * is removed); otherwise its last use moves to now, at most once a minute.
 */
export async function resumeSession(db: Db, token: string, now = new Date()): Promise<ActiveSession | null> {
  if (!token) return null;
  const row = await db.session.findUnique({ where: { tokenHash: hashSecret(token) }, include: { account: { select: { email: true, name: true } } } });
  if (!row) return null;
  if (now.getTime() - row.lastUsedAt.getTime() >= SESSION_IDLE_MS) {
    await db.session.deleteMany({ where: { id: row.id } });
    return null;
  }
  let touched = false;
  if (now.getTime() - row.lastUsedAt.getTime() >= SESSION_TOUCH_MS) {
    const { count } = await db.session.updateMany({ where: { id: row.id, lastUsedAt: { lte: new Date(now.getTime() - SESSION_TOUCH_MS) } }, data: { lastUsedAt: now } });
    touched = count === 1;
  }
  return {
    id: row.id, accountId: row.accountId, email: row.account.email, name: row.account.name,
    csrfToken: row.csrfToken, workspaceId: row.workspaceId, touched,
  };
}

/** Whether a form's CSRF token is the session's own (compared in constant time). */
export function csrfTokenMatches(session: Pick<ActiveSession, 'csrfToken'>, sent: string | undefined | null): boolean {
  if (!sent) return false;
  const expected = Buffer.from(session.csrfToken);
  const given = Buffer.from(sent);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** The caller's sessions, most recently used first. */
export function listSessions(db: Db, caller: Caller) {
  return db.session.findMany({
    where: { accountId: caller.accountId },
    orderBy: [{ lastUsedAt: 'desc' }, { id: 'desc' }],
    select: { id: true, userAgent: true, createdAt: true, lastUsedAt: true },
  });
}

/** Signs one of the caller's sessions out; another account's session is not found. */
export async function endSession(db: Db, caller: Caller, sessionId: string): Promise<void> {
  const { count } = await db.session.deleteMany({ where: { id: idOrNotFound(sessionId, 'session'), accountId: caller.accountId } });
  if (!count) throw new DomainError('not_found', 'No such session: it has ended already.');
}

/** Signs the caller out everywhere: every session of the account ends, this one included. */
export async function endAllSessions(db: Db, caller: Caller): Promise<number> {
  return (await db.session.deleteMany({ where: { accountId: caller.accountId } })).count;
}

/**
 * The workspace a session's pages show: the one it chose while the account is still a member
 * there, else the account's personal workspace.
 */
export async function currentWorkspace(db: DbOrTx, caller: Caller, session: Pick<ActiveSession, 'workspaceId'>): Promise<WorkspaceAccess> {
  const chosen = session.workspaceId ? await workspaceAccess(db, caller.accountId, session.workspaceId) : null;
  const access = chosen ?? await workspaceAccess(db, caller.accountId);
  if (!access) throw new DomainError('not_found', 'This account has no workspace.');
  return access;
}

/** Every workspace the caller is a member of, for the switcher: its personal one first, then by name. */
export async function workspacesOf(db: Db, caller: Caller) {
  const memberships = await db.membership.findMany({ where: { accountId: caller.accountId }, include: { workspace: { select: { id: true, name: true, personal: true, ownerId: true } } } });
  return memberships
    .map((m) => ({ id: m.workspace.id, name: m.workspace.name, role: m.role, personal: m.workspace.personal && m.workspace.ownerId === caller.accountId }))
    .sort((a, b) => Number(b.personal) - Number(a.personal) || a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}

/** Switches the session's pages to another of the caller's workspaces. */
export async function chooseWorkspace(db: Db, caller: Caller, input: { sessionId: string; workspaceId: string }): Promise<WorkspaceAccess> {
  const access = await memberOf(db, caller, input.workspaceId);
  await db.session.updateMany({ where: { id: input.sessionId, accountId: caller.accountId }, data: { workspaceId: access.workspaceId } });
  return access;
}

/** Removes sessions that have ended; run now and then. */
export async function sweepSessions(db: Db, now = new Date()): Promise<number> {
  return (await db.session.deleteMany({ where: { lastUsedAt: { lt: new Date(now.getTime() - SESSION_IDLE_MS) } } })).count;
}
