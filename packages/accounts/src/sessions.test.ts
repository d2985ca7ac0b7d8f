import { describe, expect } from 'vitest';
import type { Caller } from '@vp/contracts';
import { test } from '@vp/testing';
import {
  chooseWorkspace, createAccount, csrfTokenMatches, currentWorkspace, endAllSessions, endSession, hashSecret, listSessions, removeMember,
  resumeSession, SESSION_IDLE_MS, setMember, startSession, sweepSessions, workspacesOf,
} from './index.ts';

const at = (iso: string) => new Date(iso);
const plus = (date: Date, ms: number) => new Date(date.getTime() + ms);
const caller = (accountId: string): Caller => ({ accountId, actor: `user:${accountId}`, via: 'app' });

describe('sessions (DECISIONS: 30 days from the last use)', () => {
  test('are 32 random bytes, stored hashed, with a CSRF token of their own', async ({ database: { db } }) => {
    const { account } = await createAccount(db, { email: 'session@example.test' });
    const now = at('2030-02-01T00:00:00Z');
    const { token, session } = await db.$transaction((tx) => startSession(tx, { accountId: account.id, userAgent: 'Firefox', now }));
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(session.tokenHash).toBe(hashSecret(token));
    expect(JSON.stringify(await db.session.findUniqueOrThrow({ where: { id: session.id } }))).not.toContain(token);
    const active = await resumeSession(db, token, now);
    expect(csrfTokenMatches(active!, session.csrfToken)).toBe(true);
    expect(csrfTokenMatches(active!, `${session.csrfToken}x`)).toBe(false);
    expect(csrfTokenMatches(active!, undefined)).toBe(false);
    expect(await resumeSession(db, `${token}x`, now)).toBeNull();
  });

  test('slide: each use within 30 days keeps them, touched at most once a minute; 30 idle days end them', async ({ database: { db } }) => {
    const { account } = await createAccount(db, { email: 'sliding@example.test' });
    const start = at('2030-03-01T00:00:00Z');
    const { token, session } = await db.$transaction((tx) => startSession(tx, { accountId: account.id, now: start }));
    expect((await resumeSession(db, token, plus(start, 30_000)))?.touched).toBe(false);
    expect((await db.session.findUniqueOrThrow({ where: { id: session.id } })).lastUsedAt).toEqual(start);
    const day29 = plus(start, SESSION_IDLE_MS - 24 * 3600_000);
    expect((await resumeSession(db, token, day29))?.touched).toBe(true);
    // 30 days after the first use, but not after the last: still signed in.
    expect(await resumeSession(db, token, plus(start, SESSION_IDLE_MS + 1000))).not.toBeNull();
    expect(await resumeSession(db, token, plus(plus(start, SESSION_IDLE_MS + 1000), SESSION_IDLE_MS))).toBeNull();
    expect(await db.session.findUnique({ where: { id: session.id } })).toBeNull();
  });

  test('sign out one, or everywhere; another account\'s session is not found', async ({ database: { db } }) => {
    const { account } = await createAccount(db, { email: 'many@example.test' });
    const { account: other } = await createAccount(db, { email: 'other@example.test' });
    const now = at('2030-04-01T00:00:00Z');
    const [a, b, c] = await Promise.all([1, 2, 3].map((i) => db.$transaction((tx) => startSession(tx, { accountId: account.id, userAgent: `Browser ${i}`, now: plus(now, i) }))));
    const theirs = await db.$transaction((tx) => startSession(tx, { accountId: other.id, now }));
    expect((await listSessions(db, caller(account.id))).map((s) => s.userAgent)).toEqual(['Browser 3', 'Browser 2', 'Browser 1']);
    await expect(endSession(db, caller(account.id), theirs.session.id)).rejects.toMatchObject({ code: 'not_found' });
    await expect(endSession(db, caller(account.id), 'not-an-id')).rejects.toMatchObject({ code: 'not_found' });
    await endSession(db, caller(account.id), a!.session.id);
    expect(await resumeSession(db, a!.token, now)).toBeNull();
    expect(await endAllSessions(db, caller(account.id))).toBe(2);
    expect(await resumeSession(db, b!.token, now)).toBeNull();
    expect(await resumeSession(db, c!.token, now)).toBeNull();
    expect(await resumeSession(db, theirs.token, now)).not.toBeNull();
    expect(await sweepSessions(db, plus(now, 2 * SESSION_IDLE_MS))).toBeGreaterThanOrEqual(1);
    expect(await db.session.findUnique({ where: { id: theirs.session.id } })).toBeNull();
  });

  test('show the workspace chosen while the account is a member there, else the personal one', async ({ database: { db } }) => {
    const { account: owner } = await createAccount(db, { email: 'team-owner@example.test' });
    const { account, workspace: personal } = await createAccount(db, { email: 'switcher@example.test' });
    const team = await db.workspace.create({ data: { name: 'A team', ownerId: owner.id, memberships: { create: { accountId: owner.id, role: 'owner' } } } });
    await setMember(db, { workspaceId: team.id, accountId: account.id, role: 'editor' });
    const now = at('2030-05-01T00:00:00Z');
    const { token, session } = await db.$transaction((tx) => startSession(tx, { accountId: account.id, now }));
    expect((await workspacesOf(db, caller(account.id))).map((w) => [w.name, w.personal])).toEqual([['Personal', true], ['A team', false]]);
    expect((await currentWorkspace(db, caller(account.id), session)).workspaceId).toBe(personal.id);
    await chooseWorkspace(db, caller(account.id), { sessionId: session.id, workspaceId: team.id });
    const active = await resumeSession(db, token, now);
    expect(await currentWorkspace(db, caller(account.id), active!)).toMatchObject({ workspaceId: team.id, role: 'editor' });
    await expect(chooseWorkspace(db, caller(owner.id), { sessionId: session.id, workspaceId: personal.id })).rejects.toMatchObject({ code: 'not_found' });
    await removeMember(db, caller(owner.id), { workspaceId: team.id, accountId: account.id });
    expect((await currentWorkspace(db, caller(account.id), active!)).workspaceId).toBe(personal.id);
  });
});
