import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import type { GatewayApp } from './app.ts';
import { answerClientErrors } from './http/client-errors.ts';
import { answerStalledBodies } from './http/stalled-bodies.ts';

/**
 * The app on an HTTP server, as the gateway process runs it: a body that stops arriving is
 * answered 408, and a request Node's parser refuses is answered in the error shape.
 */
export function serveApp(app: GatewayApp, options: { hostname: string; port: number; bodyIdleTimeoutMs: number }, onListening?: (port: number) => void): Server {
  // An HTTP/1.1 server: node-server makes an HTTP/2 one only when asked to.
  const server = serve({ fetch: app.fetch, hostname: options.hostname, port: options.port }, (info) => onListening?.(info.port)) as Server;
  answerStalledBodies(server, options.bodyIdleTimeoutMs);
  answerClientErrors(server);
  return server;
}
