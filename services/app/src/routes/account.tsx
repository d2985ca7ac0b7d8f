/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import { Hono, type Context } from 'hono';
import {
  chooseEmails, emailChoices, endAllSessions, endSession, listPasskeys, listSessions, ownAccount, passkeyRegistrationOptions, registerPasskey,
  removePasskey, renameAccount,
} from '@vp/accounts';
import { DomainError } from '@vp/contracts';
import { disconnect, listConnections } from '@vp/oauth';
import type { AppDeps, AppEnv, AppSite } from '../env.ts';
import { statusOf } from '../http/errors.tsx';
import { clearSessionCookie } from '../http/session.ts';
import { AccountPage } from '../views/account.tsx';
import { chromeOf, doneNotice } from './chrome.ts';
import { field, fields, invalidMessage } from './forms.ts';

const DONE = {
  name: 'Your name is saved.',
  emails: 'Your e-mail choices are saved.',
  'passkey-added': 'The passkey is added: sign in with it next time.',
  'passkey-removed': 'The passkey is removed.',
  'session-ended': 'That session is signed out.',
  disconnected: 'The MCP client is disconnected: its tokens no longer work.',
};

/** /account: the person's name, passkeys, sessions and e-mail choices. */
export function accountRoutes(deps: AppDeps, site: AppSite) {
  const app = new Hono<AppEnv>();
  const now = () => deps.now?.() ?? new Date();

  async function show(c: Context<AppEnv>, extra: { problem?: string; name?: string } = {}, status: 200 | 400 = 200) {
    const caller = c.var.caller;
    const [account, passkeys, sessions, emails, connections] = await Promise.all([
      ownAccount(deps.db, caller), listPasskeys(deps.db, caller), listSessions(deps.db, caller), emailChoices(deps.db, caller), listConnections(deps.db, caller, now()),
    ]);
    const view = { account, passkeys, sessions, emails, connections, currentSessionId: c.var.session!.id };
    return c.html(<AccountPage chrome={await chromeOf(deps, c)} view={view} notice={doneNotice(c, DONE)} {...extra} />, status);
  }

  app.get('/', (c) => show(c));

  app.post('/name', async (c) => {
    const name = await field(c, 'name');
    try {
      await renameAccount(deps.db, c.var.caller, { name });
    } catch (error) {
      return show(c, { problem: invalidMessage(error), name }, 400);
    }
    return c.redirect('/account?done=name', 303);
  });

  app.post('/emails', async (c) => {
    await chooseEmails(deps.db, c.var.caller, { wanted: await fields(c, 'emails') });
    return c.redirect('/account?done=emails', 303);
  });

  // The passkey script's two steps, in JSON (its CSRF token in a header).
  app.post('/passkeys/options', async (c) => c.json(await passkeyRegistrationOptions(deps.db, c.var.caller, { sessionId: c.var.session!.id, rp: site.rp, now: now() })));

  app.post('/passkeys', async (c) => {
    try {
      const body = await c.req.json<{ challengeId?: unknown; response?: unknown; name?: unknown }>().catch(() => ({} as Record<string, unknown>));
      if (typeof body.challengeId !== 'string') throw new DomainError('invalid', 'The passkey could not be read.');
      await registerPasskey(deps.db, c.var.caller, {
        sessionId: c.var.session!.id, challengeId: body.challengeId, response: body.response, name: typeof body.name === 'string' ? body.name : '', rp: site.rp, now: now(),
      });
      return c.json({ redirect: '/account?done=passkey-added' });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return c.json({ error: error.message }, statusOf(error));
    }
  });

  app.post('/passkeys/:id/remove', async (c) => {
    await removePasskey(deps.db, c.var.caller, c.req.param('id'));
    return c.redirect('/account?done=passkey-removed', 303);
  });

  app.post('/connections/:id/disconnect', async (c) => {
    const id = c.req.param('id');
    if (!/^[0-9a-f-]{36}$/i.test(id)) throw new DomainError('not_found', 'No such connected client.');
    await disconnect(deps.db, c.var.caller, id, now());
    return c.redirect('/account?done=disconnected', 303);
  });

  app.post('/sessions/end-all', async (c) => {
    await endAllSessions(deps.db, c.var.caller);
    clearSessionCookie(c, site);
    return c.redirect('/sign-in', 303);
  });

  app.post('/sessions/:id/end', async (c) => {
    const sessionId = c.req.param('id');
    await endSession(deps.db, c.var.caller, sessionId);
    if (sessionId !== c.var.session!.id) return c.redirect('/account?done=session-ended', 303);
    clearSessionCookie(c, site);
    return c.redirect('/sign-in', 303);
  });

  return app;
}
