import { DomainError, type Role } from '@vp/contracts';
import { isUniqueViolation, type Db, type Tx } from '@vp/db';
import { createAccountWithin, findAccountByEmail } from './accounts.ts';
import { hashSecret, randomSecret } from './secrets.ts';
import { startSession } from './sessions.ts';
import { emailAddress } from './validate.ts';

/** A sign-in link works once, for 15 minutes (DECISIONS). */
export const SIGN_IN_LINK_MS = 15 * 60 * 1000;
/** Who may sign up: any address (`open`), or only addresses with an account or a pending invitation. */
export type Signup = 'open' | 'invite';

/**
 * A link for whoever asked to sign in as `email`. The same work is done whatever the address:
 * a token is made and stored (hashed) every time, and the answer says only whether the address
 * may sign in, so that the front door sends an e-mail in every case — the link, or a note that no
 * account uses the address — and never tells the asker which.
 */
export async function requestSignIn(db: Db, input: { email: string; signup: Signup; now?: Date }) {
  const now = input.now ?? new Date();
  const email = emailAddress(input.email);
  const [account, invitation] = await Promise.all([
    findAccountByEmail(db, email),
    db.invitation.findFirst({ where: { email, acceptedAt: null, revokedAt: null }, select: { id: true } }),
  ]);
  const link = await createLinkToken(db, { email, now, lifetimeMs: SIGN_IN_LINK_MS });
  return { email, allowed: input.signup === 'open' || account !== null || invitation !== null, ...link };
}

/** A single-use token for a sign-in link (optionally an invitation's); only its hash is stored. */
export async function createLinkToken(db: Db | Tx, input: { email: string; now: Date; lifetimeMs: number; invitationId?: string }) {
  const token = randomSecret();
  const row = await db.signInToken.create({
    data: {
      tokenHash: hashSecret(token), email: input.email, invitationId: input.invitationId ?? null,
      createdAt: input.now, expiresAt: new Date(input.now.getTime() + input.lifetimeMs),
    },
  });
  return { id: row.id, token, expiresAt: row.expiresAt };
}

const unusable = () => new DomainError('expired', 'This sign-in link has expired or was used already. Ask for a new one.');

/**
 * What a link would do, for the page it opens (opening it never signs in: mail scanners open
 * links too). Throws `expired` for a link that is unknown, used or past its time.
 */
export async function inspectSignInLink(db: Db, token: string, now = new Date()) {
  const row = await db.signInToken.findUnique({
    where: { tokenHash: hashSecret(token) },
    include: { invitation: { include: { workspace: { select: { name: true } } } } },
  });
  if (!row || row.usedAt || row.expiresAt <= now) throw unusable();
  const invitation = row.invitation && !row.invitation.revokedAt ? { workspaceName: row.invitation.workspace.name, role: row.invitation.role as Role } : null;
  return { email: row.email, invitation };
}

/**
 * Uses a sign-in link: once, within its time. The address's account signs in, created with its
 * personal workspace when there is none (unless sign-up is by invitation only and nothing invites
 * it); invitations of the address are accepted. A session opened through an invitation shows the
 * workspace it joined.
 */
export async function completeSignIn(db: Db, input: { token: string; signup: Signup; userAgent?: string | null; now?: Date }) {
  const now = input.now ?? new Date();
  return withAccountCreationRetried(() => db.$transaction(async (tx) => {
    const row = await tx.signInToken.findUnique({ where: { tokenHash: hashSecret(input.token) }, include: { invitation: true } });
    // Claimed in one statement: of two uses at once, one wins.
    const claimed = row && (await tx.signInToken.updateMany({ where: { id: row.id, usedAt: null, expiresAt: { gt: now } }, data: { usedAt: now } })).count === 1;
    if (!row || !claimed) throw unusable();
    const invitation = row.invitation && !row.invitation.revokedAt ? row.invitation : null;
    let account = await findAccountByEmail(tx, row.email);
    if (!account) {
      const invited = invitation ?? await tx.invitation.findFirst({ where: { email: row.email, acceptedAt: null, revokedAt: null } });
      if (input.signup === 'invite' && !invited) throw new DomainError('forbidden', 'Sign-up is by invitation only: ask an owner of a workspace to invite this address.');
      account = (await createAccountWithin(tx, { email: row.email })).account;
    }
    const { token, session } = await startSession(tx, { accountId: account.id, workspaceId: invitation?.workspaceId ?? null, userAgent: input.userAgent, now });
    return { token, session, accountId: account.id, joined: invitation ? { workspaceId: invitation.workspaceId } : null };
  }));
}

/** Two first sign-ins of one new address at once: the loser's account insert fails, and its retry finds the winner's account. */
async function withAccountCreationRetried<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return run();
  }
}

/** Removes links that can no longer be used; run now and then. */
export async function sweepSignInTokens(db: Db, now = new Date()): Promise<number> {
  return (await db.signInToken.deleteMany({ where: { expiresAt: { lt: now } } })).count;
}
