/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import { Hono, type Context } from 'hono';
import {
  completeSignIn, emailAddress, endSession, inspectSignInLink, passkeySignInOptions, requestSignIn, SIGN_IN_LINK_MS, signInWithPasskey,
} from '@vp/accounts';
import { DomainError } from '@vp/contracts';
import type { AppDeps, AppEnv, AppSite } from '../env.ts';
import { statusOf } from '../http/errors.tsx';
import { limitSignInsPerAddress, limitSignInsPerEmail } from '../http/limits.ts';
import { takeReturn } from '../http/return-to.ts';
import { clearSessionCookie, setSessionCookie } from '../http/session.ts';
import { noAccountMail, signInLinkMail, signInLinkUrl } from '../mail/messages.ts';
import { sendInBackground } from '../mail/send.ts';
import { LinkSentPage, SignInPage, UseLinkPage } from '../views/sign-in.tsx';
import { field, invalidMessage } from './forms.ts';

/** /sign-in: e-mail links and passkeys. Every form here is posted without a session, and counted per address. */
export function signInRoutes(deps: AppDeps, site: AppSite) {
  const app = new Hono<AppEnv>();
  const now = () => deps.now?.() ?? new Date();
  const nonce = (c: Context<AppEnv>) => c.var.secureHeadersNonce ?? '';
  app.use('*', limitSignInsPerAddress(deps));

  app.get('/', (c) => (c.var.session ? c.redirect('/', 303) : c.html(<SignInPage nonce={nonce(c)} signup={deps.config.app.signup} />)));

  app.post('/', async (c) => {
    const typed = await field(c, 'email');
    let email: string;
    try {
      email = emailAddress(typed);
    } catch (error) {
      return c.html(<SignInPage nonce={nonce(c)} signup={deps.config.app.signup} email={typed} problem={invalidMessage(error)} />, 400);
    }
    await limitSignInsPerEmail(deps, email);
    const link = await requestSignIn(deps.db, { email, signup: deps.config.app.signup, now: now() });
    const url = signInLinkUrl(deps.config.appUrl, link.token);
    sendInBackground(deps, link.allowed
      ? signInLinkMail({ id: link.id, to: email, url, minutes: SIGN_IN_LINK_MS / 60_000 })
      : noAccountMail({ id: link.id, to: email, appUrl: deps.config.appUrl }), link.allowed ? url : null);
    return c.html(<LinkSentPage nonce={nonce(c)} email={email} />);
  });

  app.get('/link', async (c) => {
    const token = c.req.query('token') ?? '';
    const link = await inspectSignInLink(deps.db, token, now());
    return c.html(<UseLinkPage nonce={nonce(c)} token={token} email={link.email} invitation={link.invitation} />);
  });

  app.post('/link', async (c) => {
    const signedIn = await completeSignIn(deps.db, { token: await field(c, 'token'), signup: deps.config.app.signup, userAgent: c.req.header('user-agent'), now: now() });
    await endPrevious(c);
    setSessionCookie(c, site, signedIn.token);
    return c.redirect(takeReturn(c, site) ?? (signedIn.joined ? '/workspace' : '/'), 303);
  });

  // The passkey script's two steps, in JSON: a challenge, then the browser's signed answer to it.
  app.post('/passkey/options', async (c) => c.json(await passkeySignInOptions(deps.db, { rp: site.rp, now: now() })));

  app.post('/passkey', async (c) => {
    try {
      const body = await c.req.json<{ challengeId?: unknown; response?: unknown }>().catch(() => ({} as Record<string, unknown>));
      if (typeof body.challengeId !== 'string') throw new DomainError('invalid', 'The passkey answer could not be read.');
      const signedIn = await signInWithPasskey(deps.db, { challengeId: body.challengeId, response: body.response, rp: site.rp, userAgent: c.req.header('user-agent'), now: now() });
      await endPrevious(c);
      setSessionCookie(c, site, signedIn.token);
      return c.json({ redirect: takeReturn(c, site) ?? '/' });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return c.json({ error: error.message }, statusOf(error));
    }
  });

  /** A browser that signs in again leaves its previous session behind: it ends. */
  async function endPrevious(c: Context<AppEnv>): Promise<void> {
    const previous = c.var.session;
    if (previous) await endSession(deps.db, { accountId: previous.accountId, actor: `user:${previous.accountId}`, via: 'app' }, previous.id).catch(alreadyEnded);
  }

  return app;
}

/** Signing out ends this session only; the account page ends the others. */
export function signOutRoute(deps: AppDeps, site: AppSite) {
  const app = new Hono<AppEnv>();
  app.post('/', async (c) => {
    await endSession(deps.db, c.var.caller, c.var.session!.id).catch(alreadyEnded);
    clearSessionCookie(c, site);
    return c.redirect('/sign-in', 303);
  });
  return app;
}

/** A session that ended meanwhile (signed out elsewhere) is what was wanted; anything else is a failure. */
function alreadyEnded(error: unknown): void {
  if (!(error instanceof DomainError && error.code === 'not_found')) throw error;
}
