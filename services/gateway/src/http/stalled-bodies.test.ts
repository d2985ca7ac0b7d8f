import { connect, type AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerStalledBodies } from './stalled-bodies.ts';

const IDLE_MS = 300;
let server: ServerType;
let port: number;

beforeAll(async () => {
  const app = new Hono();
  // A body cut off fails its read, as in the gateway's routes (a 400 nobody hears).
  app.post('/echo', async (c) => {
    const text = await c.req.text().catch(() => null);
    return text === null ? c.body(null, 400) : c.json({ received: text.length });
  });
  // Reads the body, then takes longer than the idle time to answer.
  app.post('/slow-answer', async (c) => {
    const text = await c.req.text();
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS * 3));
    return c.json({ received: text.length });
  });
  // Busy for longer than the idle time before it reads a body that has all arrived.
  app.post('/slow-read', async (c) => {
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS * 3));
    return c.json({ received: (await c.req.text()).length });
  });
  server = await new Promise<ServerType>((resolve) => {
    const started = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(started));
  });
  answerStalledBodies(server, IDLE_MS);
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/**
 * Sends `head` and then each chunk `everyMs` apart, and resolves with all the server said once the
 * server closes the connection (it always does: `Connection: close`, or after its 408). `sentAll`:
 * whether every chunk had been written before the server's first byte came.
 */
function exchange(head: string, chunks: string[], everyMs: number): Promise<{ answer: string; sentAll: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    let written = 0;
    let sentAll: boolean | null = null;
    socket.on('data', (data) => {
      sentAll ??= written === chunks.length;
      answer += data.toString();
    });
    socket.on('error', reject);
    socket.on('close', () => resolve({ answer, sentAll: sentAll ?? false }));
    socket.write(head);
    chunks.forEach((chunk, i) => setTimeout(() => socket.writable && socket.write(chunk, () => (written += 1)), (i + 1) * everyMs));
  });
}

const post = (path: string, length: number) =>
  `POST ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${length}\r\n\r\n`;

describe('a request body that stops arriving', () => {
  it('is answered 408 in the spec\'s error shape, and its connection closed, once nothing came for the idle time', async () => {
    // Says 100 bytes, sends 10, and waits: only the idle timer can end it (the 408 comes after the
    // last byte sent, and the server closes the connection itself).
    const { answer, sentAll } = await exchange(post('/echo', 100), ['0123456789'], 50);
    expect(sentAll).toBe(true);
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(answer).toContain('Connection: close');
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
      error: 'The request body stopped arriving: nothing came for 0.3 s.', code: 'request_timeout',
    });
  });

  it('is not cut while it keeps arriving, however slowly in all', async () => {
    const chunks = Array.from({ length: 8 }, (_, i) => String(i).repeat(10));
    const { answer } = await exchange(post('/echo', 80), chunks, IDLE_MS / 3);
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(answer).toContain('{"received":80}');
  });

  it('no longer counts once the body is in: an answer may take its time', async () => {
    const { answer } = await exchange(post('/slow-answer', 5), ['hello'], 10);
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(answer).toContain('{"received":5}');
  });

  it('is not a body that stopped when it has all arrived and the route reads it late', async () => {
    const { answer } = await exchange(post('/slow-read', 5), ['hello'], 10);
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(answer).toContain('{"received":5}');
  });
});
