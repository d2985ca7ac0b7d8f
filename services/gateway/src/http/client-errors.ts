import type { Server } from 'node:http';
import type { Http2SecureServer, Http2Server } from 'node:http2';
import type { Duplex } from 'node:stream';

/** Node's refusals by their error code, as the API says them; any other is a request that is not HTTP. */
const REFUSALS: Record<string, { status: string; error: string; code?: string }> = {
  HPE_HEADER_OVERFLOW: { status: '431 Request Header Fields Too Large', error: 'The request line and headers are larger than the server takes (16 KiB).', code: 'headers_too_large' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: '408 Request Timeout', error: 'The request did not arrive in time.', code: 'request_timeout' },
};
const NOT_HTTP = { status: '400 Bad Request', error: 'The request could not be read as HTTP.' };

/**
 * A request Node's HTTP parser refuses before the app sees it (a request line and headers past
 * Node's 16 KiB, a malformed request) is answered in the API's error shape, as the app's own
 * refusals are, instead of Node's bare status line; and its connection closed, as Node does.
 */
export function answerClientErrors(server: Server | Http2Server | Http2SecureServer): void {
  (server as Server).on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A connection the client dropped, or one already answered (a stalled body's 408): nothing to say.
    if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    const { status, ...answer } = REFUSALS[error.code ?? ''] ?? NOT_HTTP;
    const body = JSON.stringify(answer);
    socket.end(
      `HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nCache-Control: no-store\r\nConnection: close\r\n`
      + `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      () => socket.destroy(),
    );
  });
}
