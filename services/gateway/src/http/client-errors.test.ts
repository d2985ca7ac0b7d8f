import { connect, type AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerClientErrors } from './client-errors.ts';

let server: ServerType;
let port: number;
beforeAll(async () => {
  server = serve({ fetch: new Hono().get('/', (c) => c.text('ok')).fetch, hostname: '127.0.0.1', port: 0 });
  answerClientErrors(server);
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Sends `raw` and resolves with all the server said before it closed the connection. */
function exchange(raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (data) => (answer += data.toString()));
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
    socket.write(raw);
  });
}
const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

describe('a request Node\'s parser refuses', () => {
  it('is answered 431 in the error shape when its address and headers are past 16 KiB (a megabyte in a path), and closed', async () => {
    const answer = await exchange(`GET /${'%F0%9F%98%80'.repeat(2000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(answer).toContain('Connection: close');
    expect(bodyOf(answer)).toEqual({ error: expect.stringContaining('16 KiB'), code: 'headers_too_large' });
  });

  it('is answered 400 in the error shape when it is not HTTP at all', async () => {
    const answer = await exchange('HELLO THERE\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(bodyOf(answer)).toEqual({ error: 'The request could not be read as HTTP.' });
  });
});
