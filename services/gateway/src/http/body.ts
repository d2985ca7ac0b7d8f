import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import { ApiError, NUL_REFUSED } from '@vp/contracts';
import type { GatewayEnv } from '../env.ts';

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Oversized bodies are refused before they are read to the end (413, unless a route words its
 * own `refusal`); `except` routes set their own limit. Only methods whose bodies routes read
 * are checked: looking at a body makes the Node adapter build a full Request, which a GET
 * should not pay for.
 */
export function limitBody(
  maxBytes: number,
  options: { except?: (path: string) => boolean; refusal?: (maxBytes: number) => ApiError } = {},
) {
  const refusal = options.refusal ?? ((max: number) => new ApiError(413, `The body is larger than ${max} bytes.`, 'payload_too_large'));
  const limit = bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw refusal(maxBytes);
    },
  });
  return createMiddleware<GatewayEnv>((c, next) => (WITH_BODY.has(c.req.method) && !options.except?.(c.req.path) ? limit(c, next) : next()));
}

/**
 * JSON routes take JSON: a body of another type is 415. An empty body is no body, whatever its
 * Content-Type says (many clients send application/json with every POST). Text holding NUL is a
 * 400 naming the field: PostgreSQL stores no NUL, and no brief, comment or name means one.
 */
export function requireJsonBody(options: { except?: (path: string) => boolean } = {}) {
  return createMiddleware<GatewayEnv>(async (c, next) => {
    if (WITH_BODY.has(c.req.method) && !options.except?.(c.req.path)) {
      const type = c.req.header('content-type') ?? '';
      if (!hasBody(c.req.raw)) {
        if (type) c.req.raw = withoutContentType(c.req.raw);
      } else {
        if (!/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type)) {
          throw new ApiError(415, `Send the body as application/json (got ${type || 'no Content-Type'}).`, 'unsupported_media_type');
        }
        // Parsed once here; the route's validator reads the same parse. Malformed JSON is left to it.
        const path = await c.req.json().then(pathOfNul, () => null);
        if (path !== null) throw ApiError.invalid(path, NUL_REFUSED);
      }
    }
    await next();
  });
}

/** The same request without its Content-Type, so that routes see no body at all. */
function withoutContentType(request: Request): Request {
  const headers = new Headers(request.headers);
  headers.delete('content-type');
  return new Request(request.url, { method: request.method, headers });
}

/** The dotted path of the first string (or key) holding NUL in a parsed body; null when none does. */
function pathOfNul(value: unknown, path: string[] = []): string | null {
  if (typeof value === 'string') return value.includes('\0') ? path.join('.') : null;
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\0')) return [...path, key].join('.');
    const found = pathOfNul(item, [...path, key]);
    if (found !== null) return found;
  }
  return null;
}

/** A body was sent: a length above zero, a chunked body, or (without either header) a typed one. */
function hasBody(request: Request): boolean {
  const length = request.headers.get('content-length');
  if (length !== null) return Number(length) > 0;
  if (request.headers.has('transfer-encoding')) return true;
  return request.headers.has('content-type') && request.body !== null;
}
