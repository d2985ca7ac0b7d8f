import { describe, expect } from 'vitest';
import type { Caller } from '@vp/contracts';
import { test } from '@vp/testing';
import {
  completeSignIn, createAccount, hashSecret, inspectSignInLink, inviteMember, requestSignIn, resumeSession, SIGN_IN_LINK_MS, sweepSignInTokens,
} from './index.ts';

const at = (iso: string) => new Date(iso);
const caller = (accountId: string): Caller => ({ accountId, actor: `user:${accountId}`, via: 'app' });

describe('sign-in links (DECISIONS: single use, 15 minutes, stored hashed)', () => {
  test('a new address gets an account with its personal workspace and no credits; the link works once', async ({ database: { db } }) => {
    const now = at('2030-01-01T10:00:00Z');
    const link = await requestSignIn(db, { email: '  New.Person@Example.TEST ', signup: 'open', now });
    expect(link).toMatchObject({ email: 'new.person@example.test', allowed: true, expiresAt: new Date(now.getTime() + SIGN_IN_LINK_MS) });
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const row = await db.signInToken.findUniqueOrThrow({ where: { id: link.id } });
    expect(row.tokenHash).toBe(hashSecret(link.token));
    expect(JSON.stringify(row)).not.toContain(link.token);
    expect(await inspectSignInLink(db, link.token, now)).toEqual({ email: 'new.person@example.test', invitation: null });

    const signedIn = await completeSignIn(db, { token: link.token, signup: 'open', userAgent: 'Test', now: at('2030-01-01T10:14:59Z') });
    const account = await db.account.findUniqueOrThrow({ where: { email: 'new.person@example.test' }, include: { ownedSpaces: true, credits: true } });
    expect(signedIn.accountId).toBe(account.id);
    expect(account.ownedSpaces).toMatchObject([{ personal: true }]);
    expect(account.credits).toEqual([]);
    expect(await resumeSession(db, signedIn.token, at('2030-01-01T10:15:00Z'))).toMatchObject({ accountId: account.id, email: 'new.person@example.test' });

    await expect(completeSignIn(db, { token: link.token, signup: 'open', now: at('2030-01-01T10:15:00Z') })).rejects.toMatchObject({ code: 'expired' });
    await expect(inspectSignInLink(db, link.token, now)).rejects.toMatchObject({ code: 'expired' });
  });

  test('expires after 15 minutes, by the clock it is given', async ({ database: { db } }) => {
    const now = at('2030-01-02T10:00:00Z');
    const link = await requestSignIn(db, { email: 'late@example.test', signup: 'open', now });
    await expect(completeSignIn(db, { token: link.token, signup: 'open', now: at('2030-01-02T10:15:00Z') })).rejects.toMatchObject({ code: 'expired' });
    await expect(completeSignIn(db, { token: 'no-such-token', signup: 'open', now })).rejects.toMatchObject({ code: 'expired' });
    expect(await sweepSignInTokens(db, at('2030-01-02T10:16:00Z'))).toBeGreaterThanOrEqual(1);
    expect(await db.signInToken.findUnique({ where: { id: link.id } })).toBeNull();
  });

  test('used twice at once, signs in once', async ({ database: { db } }) => {
    const now = at('2030-01-03T10:00:00Z');
    const link = await requestSignIn(db, { email: 'twice@example.test', signup: 'open', now });
    const results = await Promise.allSettled([0, 1, 2].map(() => completeSignIn(db, { token: link.token, signup: 'open', now })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(await db.account.count({ where: { email: 'twice@example.test' } })).toBe(1);
  });

  test('does the same work for every address, and says only whether it may sign in', async ({ database: { db } }) => {
    await createAccount(db, { email: 'known@example.test' });
    const now = at('2030-01-04T10:00:00Z');
    const known = await requestSignIn(db, { email: 'known@example.test', signup: 'invite', now });
    const unknown = await requestSignIn(db, { email: 'stranger@example.test', signup: 'invite', now });
    expect([known.allowed, unknown.allowed]).toEqual([true, false]);
    // A token is stored for both: the request does the same writes whatever the answer.
    expect(await db.signInToken.count({ where: { email: { in: ['known@example.test', 'stranger@example.test'] } } })).toBe(2);
    await expect(requestSignIn(db, { email: 'not an address', signup: 'open', now })).rejects.toMatchObject({ code: 'invalid', details: { issues: [{ path: 'email' }] } });
  });

  test('SIGNUP=invite: an address with no account and no invitation cannot sign up; an invited one can', async ({ database: { db } }) => {
    const now = at('2030-01-05T10:00:00Z');
    const stranger = await requestSignIn(db, { email: 'stranger2@example.test', signup: 'invite', now });
    await expect(completeSignIn(db, { token: stranger.token, signup: 'invite', now })).rejects.toMatchObject({ code: 'forbidden' });
    expect(await db.account.count({ where: { email: 'stranger2@example.test' } })).toBe(0);

    const { account: owner, workspace } = await createAccount(db, { email: 'owner@example.test', name: 'Owner' });
    const shared = await db.workspace.create({ data: { name: 'Team', ownerId: owner.id, memberships: { create: { accountId: owner.id, role: 'owner' } } } });
    await inviteMember(db, caller(owner.id), { workspaceId: shared.id, email: 'Invited@Example.test', role: 'viewer', now });
    // The invitation stands beyond its own link: a link asked for on the sign-in page accepts it.
    const asked = await requestSignIn(db, { email: 'invited@example.test', signup: 'invite', now });
    expect(asked.allowed).toBe(true);
    const signedIn = await completeSignIn(db, { token: asked.token, signup: 'invite', now });
    expect(await db.membership.findUnique({ where: { workspaceId_accountId: { workspaceId: shared.id, accountId: signedIn.accountId } } })).toMatchObject({ role: 'viewer' });
    expect(workspace.personal).toBe(true);
  });
});
