import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Http2SecureServer, Http2Server } from 'node:http2';
import { declaresBody } from './body.ts';

/**
 * A request whose body stops arriving (a stalled upload, a Content-Length larger than what is
 * sent) is answered 408 once nothing has come for `idleMs`, and its connection closed, instead of
 * holding the connection and what was read until Node's five-minute request timeout. Only while
 * the body is being received: a response that takes its time (`wait=true` renders) is not cut.
 */
export function answerStalledBodies(server: Server | Http2Server | Http2SecureServer, idleMs: number): void {
  (server as Server).on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (!declaresBody(request.headers['content-length'], request.headers['transfer-encoding'] !== undefined)) return;
    const { socket } = request;
    // On the request, not the socket: Node then leaves the socket to this handler. It hears only
    // of a body not all in; for one that is all in, Node asks the response.
    request.setTimeout(idleMs, () => {
      const body = JSON.stringify({ error: `The request body stopped arriving: nothing came for ${idleMs / 1000} s.`, code: 'request_timeout' });
      socket.end(
        'HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json\r\nCache-Control: no-store\r\nConnection: close\r\n'
        + `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        () => socket.destroy(),
      );
    });
    // All in, and not read yet (a route still busy before it reads): not a stall.
    response.on('timeout', () => request.setTimeout(0));
    // Read to the end: the idle clock stops, and Node's own keep-alive timing takes over again.
    request.once('end', () => request.setTimeout(0));
  });
}
