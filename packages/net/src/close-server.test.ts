import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { closeGracefully } from './close-server.ts';

/** A server whose /slow answers after 300 ms, and whose /held never answers. */
async function server() {
  const http = createServer((req, res) => {
    if (req.url === '/slow') setTimeout(() => res.end('done'), 300);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  const get = (path: string) => new Promise<string>((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk)).on('end', () => resolve(body));
    }).on('error', reject).end();
  });
  return { http, get };
}

describe('closeGracefully', () => {
  it('lets a request in flight finish, and takes no new connection', async () => {
    const { http, get } = await server();
    const answer = get('/slow');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closing = closeGracefully(http, 5_000);
    await expect(answer).resolves.toBe('done');
    await closing;
    await expect(get('/slow')).rejects.toThrow(/ECONNREFUSED/);
  });

  it('closes a connection still open once the grace ends', async () => {
    const { http, get } = await server();
    const held = get('/held');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    await closeGracefully(http, 200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    await expect(held).rejects.toThrow(/socket hang up/);
  });
});
