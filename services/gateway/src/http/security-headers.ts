import { createMiddleware } from 'hono/factory';
import { NONCE, secureHeaders as honoSecureHeaders } from 'hono/secure-headers';
import { DOCS } from '../docs.ts';
import { within } from '../surfaces.ts';
import { STYLE_HASH } from './html.ts';

/** The origins of the service's own addresses: where its pages' files are and its forms post to (APP_URL may be another). */
export function ownOrigins(config: { baseUrl: string; appUrl: string }): string[] {
  return [...new Set([new URL(config.baseUrl).origin, new URL(config.appUrl).origin])];
}

/** What every answer carries, a page or not (see `securityHeaders`). */
const EVERY_ANSWER = { referrerPolicy: 'same-origin', xFrameOptions: 'DENY', strictTransportSecurity: false, crossOriginResourcePolicy: false } as const;

/** The API's answers are JSON, never a page: nothing in one may load or run, and none is framed. A fixed policy, cheap on the hot path. */
const API_POLICY = { defaultSrc: ["'none'"], frameAncestors: ["'none'"] };

/** A page's policy: scripts by this answer's nonce; styles by it and the pages' stylesheet's hash, or (`inlineStyles`) inline. */
function pagePolicy(own: string[], inlineStyles: boolean) {
  return {
    defaultSrc: ["'none'"],
    scriptSrc: [NONCE],
    // A nonce or hash in the list would switch 'unsafe-inline' off.
    styleSrc: inlineStyles ? ["'self'", "'unsafe-inline'"] : [NONCE, `'sha256-${STYLE_HASH}'`],
    imgSrc: ["'self'", 'data:', ...own],
    mediaSrc: ["'self'", ...own],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'", ...own],
    formAction: ["'self'", ...own],
    frameAncestors: ["'none'"],
    baseUri: ["'none'"],
    objectSrc: ["'none'"],
  };
}

/**
 * Headers every response carries, set once the response is made (errors included). `nosniff`: a
 * browser takes each response as the type it is sent as (a video, a poster, JSON), never as a
 * page it guessed. Referrer `same-origin`: addresses of ours that act without a login (a greenlight
 * link's token) are never passed on to another site, and our pages' forms still say their origin
 * (`no-referrer` would make it `null`), which the forgery check reads. Nothing is framed
 * (clickjacking a greenlight button). A page (anything but the API's JSON) runs only the scripts
 * the server named by the answer's nonce (the reference page's; the others run none), takes styles
 * by that nonce or by the hash of our one stylesheet, loads files and posts forms only to our own
 * origins, and sets no `<base>`; the reference page (`/docs`), whose renderer styles its elements
 * inline as it draws them, takes any inline style, never an inline script. No HSTS here: that is
 * for whatever terminates TLS in front of the service; nor Cross-Origin-Resource-Policy, so that a
 * shared video plays embedded in another site.
 */
export function securityHeaders(config: { baseUrl: string; appUrl: string }) {
  const own = ownOrigins(config);
  const api = honoSecureHeaders({ ...EVERY_ANSWER, contentSecurityPolicy: API_POLICY });
  const pages = honoSecureHeaders({ ...EVERY_ANSWER, contentSecurityPolicy: pagePolicy(own, false) });
  const docs = honoSecureHeaders({ ...EVERY_ANSWER, contentSecurityPolicy: pagePolicy(own, true) });
  return createMiddleware((c, next) => {
    const { path } = c.req;
    return (within(path, '/v1') || within(path, '/production-links') ? api : path === DOCS ? docs : pages)(c, next);
  });
}

/**
 * API answers are the caller's own (a webhook secret shown once, a pitch, a link's view): no
 * browser or proxy cache keeps them. A route that wants caching says so itself.
 */
export const notStored = createMiddleware(async (c, next) => {
  c.header('Cache-Control', 'no-store');
  await next();
});
