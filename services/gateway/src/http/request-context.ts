import { randomUUID } from 'node:crypto';
import { createMiddleware } from 'hono/factory';
import type { Logger } from 'pino';
import type { GatewayEnv } from '../deps.ts';

const INCOMING_ID = /^[\w.-]{8,128}$/;
/** Paths whose second segment is a link token: it acts without a login for days, so logs never hold it. */
const TOKEN_IN_PATH = /^\/(production-links|go)\/[^/]+/;

/** The path as the access log shows it. */
export function pathForLog(path: string): string {
  return path.replace(TOKEN_IN_PATH, '/$1/[token]');
}

/**
 * Gives every request an id (the caller's `X-Request-Id` when it is sane), a logger that puts
 * it on every line, and one access-log line when the response is sent.
 */
export function requestContext(log: Logger) {
  return createMiddleware<GatewayEnv>(async (c, next) => {
    c.set('receivedAt', Date.now());
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && INCOMING_ID.test(incoming) ? incoming : randomUUID();
    const requestLog = log.child({ requestId });
    c.set('requestId', requestId);
    c.set('log', requestLog);
    // Headers set before the handler runs go out with whatever response it makes (errors too),
    // and the response object stays the one the handler made (node-server's fast path).
    c.header('X-Request-Id', requestId);
    const started = performance.now();
    await next();
    requestLog.info(
      { method: c.req.method, path: pathForLog(c.req.path), status: c.res.status, ms: Math.round(performance.now() - started) },
      'request',
    );
  });
}
