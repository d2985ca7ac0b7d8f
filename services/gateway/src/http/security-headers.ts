import { createMiddleware } from 'hono/factory';
import { NONCE, secureHeaders as honoSecureHeaders } from 'hono/secure-headers';
import { STYLE_HASH } from './html.ts';

/** The origins of the service's own addresses: where its pages' files are and its forms post to (APP_URL may be another). */
export function ownOrigins(config: { baseUrl: string; appUrl: string }): string[] {
  return [...new Set([new URL(config.baseUrl).origin, new URL(config.appUrl).origin])];
}

/**
 * Headers every response carries, set once the response is made (errors included). `nosniff`: a
 * browser takes each response as the type it is sent as (a video, a poster, JSON), never as a
 * page it guessed. Referrer `same-origin`: addresses of ours that act without a login (a greenlight
 * link's token) are never passed on to another site, and our pages' forms still say their origin
 * (`no-referrer` would make it `null`), which the forgery check reads. A page may not be framed (clickjacking a greenlight
 * button), runs only the scripts the server named by this response's nonce (the reference page's;
 * the others run none), takes styles by that nonce or by the hash of our one stylesheet, loads
 * files and posts forms only to our own origins, and sets no `<base>`. With `inlineStyles` (the API
 * reference page, whose renderer styles its elements inline as it draws them), any inline style
 * is taken; never an inline script. No HSTS here: that is for
 * whatever terminates TLS in front of the service; nor Cross-Origin-Resource-Policy, so that a
 * shared video plays embedded in another site.
 */
export function securityHeaders(config: { baseUrl: string; appUrl: string }, options: { inlineStyles?: boolean } = {}) {
  const own = ownOrigins(config);
  return honoSecureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'none'"],
      scriptSrc: [NONCE],
      // A nonce or hash in the list would switch 'unsafe-inline' off.
      styleSrc: options.inlineStyles ? ["'self'", "'unsafe-inline'"] : [NONCE, `'sha256-${STYLE_HASH}'`],
      imgSrc: ["'self'", 'data:', ...own],
      mediaSrc: ["'self'", ...own],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'", ...own],
      formAction: ["'self'", ...own],
      frameAncestors: ["'none'"],
      baseUri: ["'none'"],
      objectSrc: ["'none'"],
    },
    referrerPolicy: 'same-origin',
    xFrameOptions: 'DENY',
    strictTransportSecurity: false,
    crossOriginResourcePolicy: false,
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
