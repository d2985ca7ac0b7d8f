import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import { ApiError } from '@vp/contracts';
import type { GatewayEnv } from '../env.ts';

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Oversized bodies are refused before they are read to the end; `except` routes set their own
 * limit. Only methods whose bodies routes read are checked: looking at a body makes the Node
 * adapter build a full Request, which a GET should not pay for.
 */
export function limitBody(maxBytes: number, options: { except?: (path: string) => boolean } = {}) {
  const limit = bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new ApiError(413, `The body is larger than ${maxBytes} bytes.`, 'payload_too_large');
    },
  });
  return createMiddleware<GatewayEnv>((c, next) => (WITH_BODY.has(c.req.method) && !options.except?.(c.req.path) ? limit(c, next) : next()));
}

/** JSON routes take JSON: a body of another type is 415 (an empty body is left to the route). */
export function requireJsonBody(options: { except?: (path: string) => boolean } = {}) {
  return createMiddleware<GatewayEnv>(async (c, next) => {
    if (WITH_BODY.has(c.req.method) && !options.except?.(c.req.path) && hasBody(c.req.raw)) {
      const type = c.req.header('content-type') ?? '';
      if (!/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type)) {
        throw new ApiError(415, `Send the body as application/json (got ${type || 'no Content-Type'}).`, 'unsupported_media_type');
      }
    }
    await next();
  });
}

/** A body was sent: a length above zero, a chunked body, or (without either header) a typed one. */
function hasBody(request: Request): boolean {
  const length = request.headers.get('content-length');
  if (length !== null) return Number(length) > 0;
  if (request.headers.has('transfer-encoding')) return true;
  return request.headers.has('content-type') && request.body !== null;
}
