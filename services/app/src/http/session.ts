import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { currentWorkspace, resumeSession, SESSION_IDLE_MS } from '@vp/accounts';
import { SESSION_COOKIE } from '@vp/contracts';
import type { AppDeps, AppEnv, AppSite } from '../env.ts';
import { rememberReturn } from './return-to.ts';

export const sessionCookieName = (site: AppSite) => (site.secure ? SESSION_COOKIE.secure : SESSION_COOKIE.plain);

/**
 * The cookie: HttpOnly (no script reads it), SameSite=Lax (sent on links from other sites, never
 * on their forms or fetches), Secure with the `__Host-` prefix on https. It lives as long as the
 * session may: 30 days, renewed whenever the session's last use moves on.
 */
export function setSessionCookie(c: Context, site: AppSite, token: string): void {
  setCookie(c, sessionCookieName(site), token, {
    httpOnly: true, sameSite: 'Lax', secure: site.secure, path: '/', maxAge: Math.floor(SESSION_IDLE_MS / 1000),
  });
}

export function clearSessionCookie(c: Context, site: AppSite): void {
  deleteCookie(c, sessionCookieName(site), { path: '/', secure: site.secure, httpOnly: true, sameSite: 'Lax' });
}

/** Finds the request's session (null when signed out), renewing the cookie when the session was touched. */
export function loadSession(deps: AppDeps, site: AppSite) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const token = getCookie(c, sessionCookieName(site));
    const session = token ? await resumeSession(deps.db, token, deps.now?.() ?? new Date()) : null;
    if (token && !session) clearSessionCookie(c, site);
    if (session?.touched) setSessionCookie(c, site, token!);
    c.set('session', session);
    await next();
  });
}

/**
 * Signed-in pages: the caller and the workspace the pages show. A browser without a session is
 * sent to sign in (a form posted after its session ended, too), and back to the page after.
 */
export function requireSignIn(deps: AppDeps, site: AppSite) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const session = c.var.session;
    if (!session) {
      rememberReturn(c, site);
      return c.redirect('/sign-in', 303);
    }
    const caller = { accountId: session.accountId, actor: `user:${session.accountId}`, via: 'app' } as const;
    c.set('caller', caller);
    c.set('workspace', await currentWorkspace(deps.db, caller, session));
    await next();
  });
}
