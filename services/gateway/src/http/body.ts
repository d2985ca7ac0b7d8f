import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import { ApiError, NUL_REFUSED } from '@vp/contracts';
import type { GatewayEnv } from '../env.ts';

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

/** A place in a parsed body: its key, and the place holding it. */
type Place = { key: string; up: Place } | null;
function dotted(place: Place): string {
  const keys: string[] = [];
  for (let at = place; at; at = at.up) keys.push(at.key);
  return keys.reverse().join('.');
}

/**
 * The dotted path of the first string (or key) holding NUL in a parsed body; null when none does.
 * Walked with a stack of its own: a body nested thousands deep must not exhaust the call stack.
 */
function pathOfNul(body: unknown): string | null {
  const pending: { value: unknown; place: Place }[] = [{ value: body, place: null }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value, place } = next;
    if (place?.key.includes('\0') || (typeof value === 'string' && value.includes('\0'))) return dotted(place);
    if (typeof value !== 'object' || value === null) continue;
    // Pushed last to first, so that entries are looked at in order, each key before its value.
    const entries = Object.entries(value);
    for (let i = entries.length - 1; i >= 0; i--) pending.push({ value: entries[i]![1], place: { key: entries[i]![0], up: place } });
  }
  return null;
}

/** A body was sent: a length above zero, a chunked body, or (without either header) a typed one. */
function hasBody(request: Request): boolean {
  const declared = declaresBody(request.headers.get('content-length'), request.headers.has('transfer-encoding'));
  return declared ?? (request.headers.has('content-type') && request.body !== null);
}

/** Whether a request's headers say a body follows: null when they say nothing either way. */
export function declaresBody(contentLength: string | null | undefined, chunked: boolean): boolean | null {
  if (contentLength != null) return Number(contentLength) > 0;
  return chunked ? true : null;
}
