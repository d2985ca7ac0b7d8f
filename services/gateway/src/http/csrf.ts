import { createMiddleware } from 'hono/factory';
import { html, page } from './html.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** What a browser says of a request made from one of our own pages (or typed in, or bookmarked). */
const OWN_SITE = new Set(['same-origin', 'none']);

/**
 * The pages' forms act without a login (a greenlight link's, a project's): a form another site
 * makes a visitor's browser post is refused, 403 as a page. Browsers say where a request comes
 * from: `Sec-Fetch-Site`, and `Origin` on every POST. A request carrying neither comes from a
 * program, not a browser, and is no forgery: it is let through. `origins` are the service's own:
 * behind a proxy that terminates TLS, the address the browser used is not the one seen here.
 */
export function refuseCrossSiteForms(origins: readonly string[]) {
  return createMiddleware(async (c, next) => {
    if (!SAFE_METHODS.has(c.req.method)) {
      const site = c.req.header('sec-fetch-site');
      const origin = c.req.header('origin');
      const ownOrigin = origin === undefined || origin === new URL(c.req.url).origin || origins.includes(origin);
      if ((site !== undefined && !OWN_SITE.has(site)) || !ownOrigin) {
        c.header('Cache-Control', 'no-store');
        return c.html(crossSitePage(), 403);
      }
    }
    await next();
  });
}

const crossSitePage = () => page({
  title: 'Sent from another site',
  body: html`<h1>Sent from another site</h1><p class="muted">This form was sent from a page of another site, so nothing was done. Open the link you were sent and use the form on its page.</p>`,
});
