import { describe, expect } from 'vitest';
import type { Caller } from '@vp/contracts';
import { test } from '@vp/testing';
import {
  changeRole, chooseEmails, completeSignIn, createAccount, createWorkspace, emailChoices, emailRecipients, inspectSignInLink, inviteMember,
  listMembers, pendingInvitations, removeMember, saveBrand, setMember, wantsEmail, withdrawInvitation, workspaceBrand,
} from './index.ts';

const caller = (accountId: string): Caller => ({ accountId, actor: `user:${accountId}`, via: 'app' });

describe('members, invitations, brand and e-mail choices', () => {
  test('an owner invites by e-mail with a role; the link signs the invited person in as a member', async ({ database: { db } }) => {
    const { account: owner } = await createAccount(db, { email: 'inv-owner@example.test', name: 'Olga' });
    const team = await createWorkspace(db, { ownerId: owner.id, name: 'Studio' });
    const now = new Date('2030-06-01T00:00:00Z');
    const invited = await inviteMember(db, caller(owner.id), { workspaceId: team.id, email: 'Guest@Example.test', role: 'viewer', now });
    expect(invited).toMatchObject({ workspaceName: 'Studio', inviterName: 'Olga', invitation: { email: 'guest@example.test', role: 'viewer' } });
    expect(await inspectSignInLink(db, invited.link.token, now)).toEqual({ email: 'guest@example.test', invitation: { workspaceName: 'Studio', role: 'viewer' } });
    // A second invitation replaces the first, whose link then signs in without joining.
    const again = await inviteMember(db, caller(owner.id), { workspaceId: team.id, email: 'guest@example.test', role: 'editor', now });
    expect((await pendingInvitations(db, caller(owner.id), team.id)).map((i) => i.role)).toEqual(['editor']);
    const signedIn = await completeSignIn(db, { token: again.link.token, signup: 'invite', now });
    expect(signedIn.joined).toEqual({ workspaceId: team.id });
    expect(signedIn.session.workspaceId).toBe(team.id);
    expect((await listMembers(db, caller(signedIn.accountId), team.id)).map((m) => [m.email, m.role, m.isOwner])).toEqual([
      ['inv-owner@example.test', 'owner', true], ['guest@example.test', 'editor', false],
    ]);
    expect(await pendingInvitations(db, caller(owner.id), team.id)).toEqual([]);
    await expect(inviteMember(db, caller(owner.id), { workspaceId: team.id, email: 'guest@example.test', role: 'viewer', now })).rejects.toMatchObject({ code: 'invalid' });
  });

  test('only owners manage members; the owner\'s own membership is fixed; outsiders find nothing', async ({ database: { db } }) => {
    const { account: owner } = await createAccount(db, { email: 'm-owner@example.test' });
    const { account: editor } = await createAccount(db, { email: 'm-editor@example.test' });
    const { account: outsider } = await createAccount(db, { email: 'm-outsider@example.test' });
    const team = await createWorkspace(db, { ownerId: owner.id, name: 'Crew' });
    await setMember(db, { workspaceId: team.id, accountId: editor.id, role: 'editor' });
    const asEditor = caller(editor.id);
    await expect(inviteMember(db, asEditor, { workspaceId: team.id, email: 'x@example.test', role: 'viewer' })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(changeRole(db, asEditor, { workspaceId: team.id, accountId: editor.id, role: 'owner' })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(removeMember(db, asEditor, { workspaceId: team.id, accountId: owner.id })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(listMembers(db, caller(outsider.id), team.id)).rejects.toMatchObject({ code: 'not_found' });
    await expect(changeRole(db, caller(owner.id), { workspaceId: team.id, accountId: owner.id, role: 'viewer' })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(changeRole(db, caller(owner.id), { workspaceId: team.id, accountId: editor.id, role: 'boss' })).rejects.toMatchObject({ code: 'invalid' });
    await expect(changeRole(db, caller(owner.id), { workspaceId: team.id, accountId: outsider.id, role: 'viewer' })).rejects.toMatchObject({ code: 'not_found' });
    await changeRole(db, caller(owner.id), { workspaceId: team.id, accountId: editor.id, role: 'viewer' });
    await expect(saveBrand(db, asEditor, { workspaceId: team.id, brand: { name: 'X' } })).rejects.toMatchObject({ code: 'forbidden' });
    const invitation = await inviteMember(db, caller(owner.id), { workspaceId: team.id, email: 'later@example.test', role: 'viewer' });
    await withdrawInvitation(db, caller(owner.id), { workspaceId: team.id, invitationId: invitation.invitation.id });
    await expect(inspectSignInLink(db, invitation.link.token)).resolves.toEqual({ email: 'later@example.test', invitation: null });
    await removeMember(db, caller(owner.id), { workspaceId: team.id, accountId: editor.id });
    await expect(listMembers(db, asEditor, team.id)).rejects.toMatchObject({ code: 'not_found' });
  });

  test('the saved brand keeps the brief\'s fields and bounds', async ({ database: { db } }) => {
    const { account, workspace } = await createAccount(db, { email: 'brand@example.test' });
    expect(await workspaceBrand(db, caller(account.id), workspace.id)).toEqual({ name: null, logoUrl: null, primaryColor: null, backgroundColor: null, fontFamily: null, tone: null });
    const brand = { name: '<script>"Acme"</script>', logoUrl: 'https://example.com/logo.svg', primaryColor: '#ff5a36', backgroundColor: '', fontFamily: 'Inter', tone: 'Warm' };
    await saveBrand(db, caller(account.id), { workspaceId: workspace.id, brand });
    expect(await workspaceBrand(db, caller(account.id), workspace.id)).toEqual({ ...brand, backgroundColor: null });
    await expect(saveBrand(db, caller(account.id), { workspaceId: workspace.id, brand: { logoUrl: 'javascript:alert(1)' } }))
      .rejects.toMatchObject({ code: 'invalid', details: { issues: [{ path: 'logoUrl' }] } });
    await expect(saveBrand(db, caller(account.id), { workspaceId: workspace.id, brand: { tone: 'x'.repeat(301) } })).rejects.toMatchObject({ code: 'invalid' });
  });

  test('each member may turn each kind of e-mail off; the senders ask wantsEmail or emailRecipients', async ({ database: { db } }) => {
    const { account: owner } = await createAccount(db, { email: 'mail-owner@example.test' });
    const { account: editor } = await createAccount(db, { email: 'mail-editor@example.test' });
    const { account: viewer } = await createAccount(db, { email: 'mail-viewer@example.test' });
    const team = await createWorkspace(db, { ownerId: owner.id, name: 'Mail' });
    await setMember(db, { workspaceId: team.id, accountId: editor.id, role: 'editor' });
    await setMember(db, { workspaceId: team.id, accountId: viewer.id, role: 'viewer' });
    expect(await emailChoices(db, caller(editor.id))).toEqual({ pitch_ready: true, video_delivered: true, production_failed: true });
    await chooseEmails(db, caller(editor.id), { wanted: ['pitch_ready'] });
    expect(await emailChoices(db, caller(editor.id))).toEqual({ pitch_ready: true, video_delivered: false, production_failed: false });
    expect(await wantsEmail(db, editor.id, 'video_delivered')).toBe(false);
    expect(await wantsEmail(db, owner.id, 'video_delivered')).toBe(true);
    expect((await emailRecipients(db, team.id, 'video_delivered')).map((a) => a.email)).toEqual(['mail-owner@example.test']);
    expect((await emailRecipients(db, team.id, 'pitch_ready')).map((a) => a.email)).toEqual(['mail-owner@example.test', 'mail-editor@example.test']);
    await chooseEmails(db, caller(editor.id), { wanted: ['pitch_ready', 'video_delivered', 'production_failed', 'spam'] });
    expect(await wantsEmail(db, editor.id, 'production_failed')).toBe(true);
  });
});
