import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { AppSite } from '../env.ts';

/** Where a page that needs a sign-in sends the browser back to once signed in (the OAuth consent page). */
const RETURN_COOKIE = 'vp_return_to';
/** Only this app's own pages that ask for it: never another origin (`//host`), never an arbitrary path. */
const RETURNABLE = /^\/oauth\/authorize\?[^\\]*$/;

export function rememberReturn(c: Context, site: AppSite, path: string): void {
  if (!RETURNABLE.test(path)) return;
  setCookie(c, RETURN_COOKIE, path, { path: '/', httpOnly: true, sameSite: 'Lax', secure: site.secure, maxAge: 30 * 60 });
}

/** The page to return to after a sign-in (once), else `fallback`. */
export function takeReturn(c: Context, site: AppSite, fallback: string): string {
  const path = getCookie(c, RETURN_COOKIE);
  if (path === undefined) return fallback;
  deleteCookie(c, RETURN_COOKIE, { path: '/', secure: site.secure, httpOnly: true, sameSite: 'Lax' });
  return RETURNABLE.test(path) ? path : fallback;
}
