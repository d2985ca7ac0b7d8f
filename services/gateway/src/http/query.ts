import { createMiddleware } from 'hono/factory';
import { ApiError } from '@vp/contracts';
import { malformedPairs } from './text.ts';

/**
 * A query string's names and values must be percent-encoded UTF-8: Hono keeps one that is not as
 * it came (`%ED%A0%80`, a lone surrogate's bytes, stays those nine characters). A 400 names each
 * such parameter. What the text holds once decoded (NUL) is the route schemas' to check.
 */
export const requireUtf8Query = createMiddleware(async (c, next) => {
  const at = c.req.url.indexOf('?');
  const issues = at < 0 ? [] : malformedPairs(c.req.url.slice(at + 1));
  if (issues.length) throw new ApiError(400, `Invalid request query: ${issues[0]!.path}: ${issues[0]!.message}`, undefined, {}, issues);
  await next();
});
