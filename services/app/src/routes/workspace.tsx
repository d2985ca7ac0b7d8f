/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import { Hono, type Context } from 'hono';
import {
  BRAND_FIELDS, changeRole, chooseWorkspace, INVITATION_LINK_MS, inviteMember, listMembers, pendingInvitations, removeMember, saveBrand,
  withdrawInvitation, workspaceBrand,
} from '@vp/accounts';
import { balance, workspaceEntries } from '@vp/ledger';
import { pitchesUsed } from '@vp/productions';
import type { AppDeps, AppEnv } from '../env.ts';
import { invitationMail, signInLinkUrl } from '../mail/messages.ts';
import { sendInBackground } from '../mail/send.ts';
import { WorkspacePage, type WorkspaceView } from '../views/workspace.tsx';
import { chromeOf, doneNotice } from './chrome.ts';
import { field, invalidMessage, issuesByField } from './forms.ts';

const DONE = {
  invited: 'The invitation is on its way.', withdrawn: 'The invitation is withdrawn.', role: 'The role is changed.',
  removed: 'The member is removed.', brand: 'The brand is saved.', switched: 'You are now in this workspace.',
};
const LEDGER_ROWS = 50;

/** /workspace: members and invitations, the saved brand, credits. Owners manage members; owners and editors the brand. */
export function workspaceRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  const now = () => deps.now?.() ?? new Date();
  const workspaceId = (c: Context<AppEnv>) => c.var.workspace.workspaceId;

  async function show(c: Context<AppEnv>, forms: Parameters<typeof WorkspacePage>[0]['forms'] = {}, status: 200 | 400 = 200) {
    const { caller, workspace } = c.var;
    const [members, invitations, brand, credits, used, entries] = await Promise.all([
      listMembers(deps.db, caller, workspace.workspaceId), pendingInvitations(deps.db, caller, workspace.workspaceId), workspaceBrand(deps.db, caller, workspace.workspaceId),
      balance(deps.db, workspace.ownerId), pitchesUsed(deps.db, workspace.workspaceId, now()),
      workspaceEntries(deps.db, { ownerId: workspace.ownerId, workspaceId: workspace.workspaceId, limit: LEDGER_ROWS }),
    ]);
    const view: WorkspaceView = { members, invitations, brand, credits: { balance: credits, pitchesUsed: used, pitchCap: workspace.pitchCap, entries } };
    return c.html(<WorkspacePage chrome={await chromeOf(deps, c)} view={view} forms={forms} notice={doneNotice(c, DONE)} />, status);
  }

  app.get('/', (c) => show(c));

  app.post('/switch', async (c) => {
    await chooseWorkspace(deps.db, c.var.caller, { sessionId: c.var.session!.id, workspaceId: await field(c, 'workspaceId') });
    return c.redirect('/', 303);
  });

  app.post('/invitations', async (c) => {
    const form = { email: await field(c, 'email'), role: await field(c, 'role') };
    try {
      const invited = await inviteMember(deps.db, c.var.caller, { workspaceId: workspaceId(c), ...form, now: now() });
      const url = signInLinkUrl(deps.config.appUrl, invited.link.token);
      sendInBackground(deps, invitationMail({
        id: invited.invitation.id, to: invited.invitation.email, url, workspaceName: invited.workspaceName, inviterName: invited.inviterName,
        role: invited.invitation.role, days: INVITATION_LINK_MS / 86_400_000,
      }), url);
    } catch (error) {
      return show(c, { invite: { ...form, problem: invalidMessage(error) } }, 400);
    }
    return c.redirect('/workspace?done=invited', 303);
  });

  app.post('/invitations/:id/withdraw', async (c) => {
    await withdrawInvitation(deps.db, c.var.caller, { workspaceId: workspaceId(c), invitationId: c.req.param('id'), now: now() });
    return c.redirect('/workspace?done=withdrawn', 303);
  });

  app.post('/members/:accountId/role', async (c) => {
    await changeRole(deps.db, c.var.caller, { workspaceId: workspaceId(c), accountId: c.req.param('accountId'), role: await field(c, 'role') });
    return c.redirect('/workspace?done=role', 303);
  });

  app.post('/members/:accountId/remove', async (c) => {
    await removeMember(deps.db, c.var.caller, { workspaceId: workspaceId(c), accountId: c.req.param('accountId') });
    return c.redirect('/workspace?done=removed', 303);
  });

  app.post('/brand', async (c) => {
    const values = Object.fromEntries(await Promise.all(BRAND_FIELDS.map(async (name) => [name, await field(c, name)] as const)));
    try {
      await saveBrand(deps.db, c.var.caller, { workspaceId: workspaceId(c), brand: values });
    } catch (error) {
      return show(c, { brand: { values, problems: issuesByField(error) } }, 400);
    }
    return c.redirect('/workspace?done=brand', 303);
  });

  return app;
}
