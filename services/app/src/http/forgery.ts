import { createMiddleware } from 'hono/factory';
import { csrfTokenMatches } from '@vp/accounts';
import { DomainError } from '@vp/contracts';
import type { AppEnv, AppSite } from '../env.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A state-changing request must come from the app's own pages. Browsers name where a request
 * comes from in `Origin`; a page whose Referrer-Policy is `no-referrer` (every page here) sends
 * `Origin: null` with its own forms, and then `Sec-Fetch-Site` says whether the request is
 * same-origin. Neither header (not a browser, or a very old one): refused.
 */
export function fromOwnPages(origin: string | undefined, fetchSite: string | undefined, site: AppSite): boolean {
  if (origin && origin !== 'null') return origin === site.origin;
  return fetchSite === 'same-origin';
}

export function sameOriginOnly(site: AppSite) {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (!SAFE_METHODS.has(c.req.method) && !fromOwnPages(c.req.header('origin'), c.req.header('sec-fetch-site'), site)) {
      throw new DomainError('forbidden', 'This form was not sent from this site\'s own pages, so nothing was done.');
    }
    await next();
  });
}

/** The form field (or, for the passkey script's requests, the header) carrying the session's CSRF token. */
export const CSRF_FIELD = '_csrf';
export const CSRF_HEADER = 'x-csrf-token';

/** Every state-changing request of a signed-in browser carries its session's CSRF token. */
export const csrfTokenRequired = createMiddleware<AppEnv>(async (c, next) => {
  const session = c.var.session;
  if (session && !SAFE_METHODS.has(c.req.method)) {
    const header = c.req.header(CSRF_HEADER);
    const form = isForm(c.req.header('content-type')) ? (await c.req.parseBody({ all: true }))[CSRF_FIELD] : undefined;
    const sent = header ?? (Array.isArray(form) ? undefined : form);
    if (typeof sent !== 'string' || !csrfTokenMatches(session, sent)) {
      throw new DomainError('forbidden', 'This form has expired or was not sent from this session\'s pages. Reload the page and try again.');
    }
  }
  await next();
});

const isForm = (type: string | undefined) => /^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(type ?? '');
