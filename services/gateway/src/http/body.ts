import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import { ApiError } from '@vp/contracts';
import { strictUtf8 } from './text.ts';
import type { GatewayEnv } from '../deps.ts';

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Oversized bodies are refused with 413 before they are read to the end; `except` routes set
 * their own limit. Only methods whose bodies routes read
 * are checked: looking at a body makes the Node adapter build a full Request, which a GET
 * should not pay for.
 */
export function limitBody(maxBytes: number, options: { except?: (path: string) => boolean } = {}) {
  const limit = bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      // Read only up to the limit: the rest may still be arriving (see `closeAfterUnreadBody`).
      throw new ApiError(413, `The body is larger than ${maxBytes} bytes.`, 'payload_too_large', { Connection: 'close' });
    },
  });
  return createMiddleware<GatewayEnv>((c, next) => (WITH_BODY.has(c.req.method) && !options.except?.(c.req.path) ? limit(c, next) : next()));
}

/**
 * JSON routes take JSON: a body of another type is 415. An empty body is no body, whatever its
 * Content-Type says (many clients send application/json with every POST). The body must be UTF-8
 * (RFC 8259): bytes that are not are a 400 here, not text changed into U+FFFD. What its strings
 * hold is the schemas' to check (`StorableText`).
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
        // Decoded once here; the route's validator parses the same text.
        const text = strictUtf8(await c.req.arrayBuffer());
        if (text === null) throw ApiError.invalid('', 'The body is not UTF-8 text.');
        // Hono keeps each read of the body as a promise (its types say the value): `json()` parses this text.
        const cache = c.req.bodyCache as { text?: Promise<string>; arrayBuffer?: unknown };
        cache.text = Promise.resolve(text);
        delete cache.arrayBuffer;
      }
    }
    await next();
  });
}

/**
 * A request answered without its body having been read (refused by the key check, the rate
 * limit, its type) gets `Connection: close`, so that the client sends its next request on a new
 * connection; one over the body limit says so itself. The rest of a large body may still be
 * arriving on this one, and the Node adapter, which drains it, drops the connection when it has
 * not all come in within half a second: a request the client sent on it meanwhile would fail.
 */
export function closeAfterUnreadBody() {
  return createMiddleware<GatewayEnv>(async (c, next) => {
    await next();
    if (WITH_BODY.has(c.req.method) && hasBody(c.req.raw) && !c.req.raw.bodyUsed) c.res.headers.set('Connection', 'close');
  });
}

/** The same request without its Content-Type, so that routes see no body at all. */
function withoutContentType(request: Request): Request {
  const headers = new Headers(request.headers);
  headers.delete('content-type');
  return new Request(request.url, { method: request.method, headers });
}

/** A body was sent: a length above zero, a chunked body, or (without either header) a typed one. */
export function hasBody(request: Request): boolean {
  const declared = declaresBody(request.headers.get('content-length'), request.headers.has('transfer-encoding'));
  return declared ?? (request.headers.has('content-type') && request.body !== null);
}

/** Whether a request's headers say a body follows: null when they say nothing either way. */
export function declaresBody(contentLength: string | null | undefined, chunked: boolean): boolean | null {
  if (contentLength != null) return Number(contentLength) > 0;
  return chunked ? true : null;
}
