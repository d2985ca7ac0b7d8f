import { createMiddleware } from 'hono/factory';

/**
 * Headers every response carries. `nosniff`: a browser takes each response as the type it is
 * sent as (a video, a poster, JSON), never as a page it guessed. `no-referrer`: addresses of ours
 * that act without a login (a greenlight link's token) are never passed on to another site.
 * Set before the handler runs, so they go out with whatever response it makes, errors included.
 */
export const securityHeaders = createMiddleware(async (c, next) => {
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Referrer-Policy', 'no-referrer');
  await next();
});

/**
 * API answers are the caller's own (a webhook secret shown once, a pitch, a link's view): no
 * browser or proxy cache keeps them. A route that wants caching says so itself.
 */
export const notStored = createMiddleware(async (c, next) => {
  c.header('Cache-Control', 'no-store');
  await next();
});
