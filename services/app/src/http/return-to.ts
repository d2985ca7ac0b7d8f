import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import type { AppEnv, AppSite } from '../env.ts';

const COOKIE = 'vp_return';
/** Long enough to fetch the sign-in e-mail and open its link. */
const REMEMBERED_SECONDS = 60 * 60;

/** A path of this app only: never another site (`//host`), never the sign-in pages themselves. */
const isOwnPage = (path: string) => path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\') && !path.startsWith('/sign-in');

/**
 * A page asked for while signed out (a production's `pageUrl` from an e-mail, a project's
 * address): remembered in this browser, so that signing in leads back to it.
 */
export function rememberReturn(c: Context, site: AppSite): void {
  const url = new URL(c.req.url);
  const path = `${url.pathname}${url.search}`;
  if (c.req.method !== 'GET' || !isOwnPage(path) || path === '/') return;
  setCookie(c, COOKIE, path, { httpOnly: true, sameSite: 'Lax', secure: site.secure, path: '/', maxAge: REMEMBERED_SECONDS });
}

/** Where to go after signing in: the remembered page (forgotten once used), or `fallback`. */
export function takeReturn(c: Context, site: AppSite, fallback: string): string {
  const path = getCookie(c, COOKIE);
  if (path === undefined) return fallback;
  deleteCookie(c, COOKIE, { path: '/', secure: site.secure, httpOnly: true, sameSite: 'Lax' });
  return isOwnPage(path) ? path : fallback;
}

/**
 * For a page a signed-out browser may open (the device flow's approval page): sign in first, then
 * come back to it.
 */
export function signInThenReturn(site: AppSite) {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (c.var.session || c.req.method !== 'GET') return next();
    rememberReturn(c, site);
    return c.redirect('/sign-in', 303);
  });
}
