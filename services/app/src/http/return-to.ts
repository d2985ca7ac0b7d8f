import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import type { AppEnv, AppSite } from '../env.ts';

/** Where a browser sent to sign in goes back to afterwards; only the sign-in routes read it. */
const RETURN_COOKIE = 'vp_return';
const RETURN_MS = 30 * 60_000;

/**
 * A page that asks a signed-out browser to sign in and then come back (the device flow's approval
 * page): its path and query are kept in a short-lived cookie, read once by the sign-in that follows.
 */
export function signInThenReturn(site: AppSite) {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (c.var.session || c.req.method !== 'GET') return next();
    const url = new URL(c.req.url);
    setCookie(c, RETURN_COOKIE, `${url.pathname}${url.search}`, {
      httpOnly: true, sameSite: 'Lax', secure: site.secure, path: '/sign-in', maxAge: RETURN_MS / 1000,
    });
    return c.redirect('/sign-in', 303);
  });
}

/** The page to return to after signing in, once (the cookie is cleared); only a path of this site. */
export function takeReturn(c: Context, site: AppSite): string | null {
  const path = getCookie(c, RETURN_COOKIE);
  if (path === undefined) return null;
  deleteCookie(c, RETURN_COOKIE, { path: '/sign-in', secure: site.secure, httpOnly: true, sameSite: 'Lax' });
  return /^\/(?![/\\])/.test(path) ? path : null;
}
