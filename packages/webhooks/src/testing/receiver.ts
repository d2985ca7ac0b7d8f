import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';

/** `bytes`: the body as it arrived; `body`: the same, decoded as UTF-8. */
export type Received = { at: number; path: string; headers: IncomingHttpHeaders; body: string; bytes: Buffer };
/** `body` as a string is sent as UTF-8; a Buffer as its bytes. */
/**
 * `bodyDelayMs`: the status and headers go at once (after `delayMs`), the body this much later.
 * `after`: nothing is answered until it settles (a receiver that holds its answer until told).
 */
export type Answer = { status: number; body?: string | Buffer; headers?: Record<string, string>; delayMs?: number; bodyDelayMs?: number; after?: Promise<unknown> };
/** Decides the answer to the n-th request (0-based). */
export type Responder = (request: Received, index: number) => Answer;

let certificate: Promise<{ key: string; cert: string }> | null = null;

/** One self-signed certificate per process, for localhost and 127.0.0.1. */
export function testCertificate(): Promise<{ key: string; cert: string }> {
  certificate ??= generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec', curve: 'P-256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] }],
  }).then((pems) => ({ key: pems.private, cert: pems.cert }));
  return certificate;
}

export type Receiver = {
  /** `https://localhost:<port>/hook`. */
  url: string;
  port: number;
  /** The certificate to trust (only the test's sender trusts it). */
  ca: string;
  received: Received[];
  respondWith(responder: Responder): void;
  close(): Promise<void>;
};

/** A real HTTPS webhook receiver on this machine that records every request and answers as told (200 by default). */
export async function startReceiver(responder: Responder = () => ({ status: 200, body: 'ok' })): Promise<Receiver> {
  const { key, cert } = await testCertificate();
  const received: Received[] = [];
  let respond = responder;
  const server: Server = createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const bytes = Buffer.concat(chunks);
      const request = { at: Date.now(), path: req.url ?? '/', headers: req.headers, body: bytes.toString('utf8'), bytes };
      const answer = respond(request, received.length);
      received.push(request);
      const reply = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status, answer.headers);
        if (!answer.bodyDelayMs) return res.end(answer.body ?? '');
        res.flushHeaders();
        setTimeout(() => res.destroyed || res.end(answer.body ?? ''), answer.bodyDelayMs).unref();
      };
      if (answer.after) void answer.after.finally(reply);
      else if (answer.delayMs) setTimeout(reply, answer.delayMs).unref();
      else reply();
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://localhost:${port}/hook`,
    port,
    ca: cert,
    received,
    respondWith: (next) => {
      respond = next;
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
