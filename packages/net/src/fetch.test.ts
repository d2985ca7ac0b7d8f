import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ConnectionError, FetchTimeoutError, HostNotFoundError, ResponseTooLargeError, UnsafeAddressError,
  UnsupportedUrlError, checkPublicHost, fetchPublic, type Resolver,
} from './index.ts';

type Seen = { url: string; method: string; host: string; body: string };
let server: Server;
let port: number;
let seen: Seen[] = [];

const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  '/hello': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain', 'x-kind': 'greeting' }).end('hello'),
  '/redirect': (_req, res) => res.writeHead(302, { location: '/hello' }).end(),
  // Never answers: only the caller's own time limit (or its abort) ends a request to it.
  '/slow': () => {},
  '/trickle': (_req, res) => {
    res.writeHead(200);
    const timer = setInterval(() => res.write('x'), 50);
    res.on('close', () => clearInterval(timer));
  },
  '/big': (_req, res) => res.writeHead(200, { 'content-length': '4096' }).end(Buffer.alloc(4096, 1)),
  '/big-chunked': (_req, res) => {
    res.writeHead(200);
    for (let i = 0; i < 8; i++) res.write(Buffer.alloc(512, 2));
    res.end();
  },
  '/echo': (req, res) => res.writeHead(201).end('ok'),
  // No body, whatever the header says (some servers send one on a 204).
  '/no-content': (_req, res) => {
    res.socket?.end('HTTP/1.1 204 No Content\r\nContent-Length: 5\r\nConnection: close\r\n\r\n');
  },
  '/sized': (_req, res) => res.writeHead(200, { 'content-length': '1000' }).end(Buffer.alloc(1000, 3)),
  // Says 1000 bytes, sends 10, and hangs up.
  '/cut-short': (_req, res) => {
    res.writeHead(200, { 'content-length': '1000' });
    res.write(Buffer.alloc(10, 4));
    setTimeout(() => res.socket?.destroy(), 20);
  },
};

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ url: req.url ?? '', method: req.method ?? '', host: req.headers.host ?? '', body: Buffer.concat(chunks).toString() });
      (routes[req.url ?? ''] ?? ((_q, s) => s.writeHead(404).end()))(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen = [];
});

const limits = { timeoutMs: 2000, maxBytes: 1024 };
const local = { ...limits, allowPrivate: true };
/** A resolver that answers each call with the next list (the last one repeats) and counts calls. */
function scriptedResolver(...answers: string[][]): Resolver & { calls: number } {
  const resolver = Object.assign(async () => {
    const answer = answers[Math.min(resolver.calls, answers.length - 1)] ?? [];
    resolver.calls += 1;
    return answer;
  }, { calls: 0 });
  return resolver;
}

describe('fetchPublic', () => {
  it('fetches from a local server when private addresses are allowed', async () => {
    const response = await fetchPublic(`http://127.0.0.1:${port}/hello`, local);
    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe('hello');
    expect(response.headers.get('x-kind')).toBe('greeting');
    expect(response.truncated).toBe(false);
    expect(response.address).toBe('127.0.0.1');
  });

  it.each([
    'http://127.0.0.1:PORT/hello',
    'http://localhost:PORT/hello',
    'http://2130706433:PORT/hello',
    'http://0x7f.1:PORT/hello',
    'http://017700000001:PORT/hello',
    'http://127.1:PORT/hello',
    'http://0:PORT/hello',
    'http://[::1]:PORT/hello',
    'http://[::ffff:127.0.0.1]:PORT/hello',
    'http://[::ffff:7f00:1]:PORT/hello',
  ])('refuses %s without sending anything', async (template) => {
    const error = await fetchPublic(template.replace('PORT', String(port)), limits).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsafeAddressError);
    expect(seen).toHaveLength(0);
  });

  it('refuses a host name that resolves to a private address, and says why', async () => {
    const resolve = scriptedResolver(['10.0.0.1']);
    const error = await fetchPublic('http://intranet.example.com/', { ...limits, resolve }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsafeAddressError);
    expect(error).toMatchObject({ hostname: 'intranet.example.com', address: '10.0.0.1', reason: 'a private network address' });
    // The address it resolved to is not told: this server's network is nobody's business.
    expect((error as Error).message).toBe('intranet.example.com resolves to a private network address, which is not a public address');
    // Nor the one inside an address that embeds one (NAT64 here).
    const embedding = await fetchPublic('http://nat64.example.com/', { ...limits, resolve: async () => ['64:ff9b::a00:1'] }).catch((e: unknown) => e);
    expect((embedding as Error).message).toBe('nat64.example.com resolves to a NAT64 address that leads to a private network address, which is not a public address');
  });

  it('refuses a host with one public and one private address', async () => {
    const resolve = scriptedResolver(['93.184.215.14', '192.168.0.10']);
    await expect(checkPublicHost('mixed.example.com', { resolve })).rejects.toMatchObject({ address: '192.168.0.10' });
    await expect(fetchPublic('http://mixed.example.com/', { ...limits, resolve })).rejects.toBeInstanceOf(UnsafeAddressError);
  });

  it('returns every address of a public host', async () => {
    const resolve = scriptedResolver(['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c']);
    await expect(checkPublicHost('example.com', { resolve })).resolves.toEqual(['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c']);
  });

  it('does not re-resolve after the check: a rebinding answer never reaches the local server', async () => {
    const resolve = scriptedResolver(['1.2.3.4'], ['127.0.0.1']);
    const error = await fetchPublic(`http://rebind.example.com:${port}/hello`, { ...limits, timeoutMs: 400, resolve }).catch((e: unknown) => e);
    expect(resolve.calls).toBe(1);
    expect(seen).toHaveLength(0);
    // Whatever the sandbox's network does with 1.2.3.4, the attempt went there, not to 127.0.0.1.
    if (error instanceof ConnectionError) expect(error.address).toBe('1.2.3.4');
    else expect(error).toBeInstanceOf(FetchTimeoutError);
  });

  it('connects to the checked address, keeping the host name for the Host header', async () => {
    // 127.0.0.2 has no server: reaching the response proves the first answer was used.
    const resolve = scriptedResolver(['127.0.0.1'], ['127.0.0.2']);
    const response = await fetchPublic(`http://hooks.example.com:${port}/echo`, {
      ...local, resolve, method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}',
    });
    expect(response.status).toBe(201);
    expect(response.address).toBe('127.0.0.1');
    expect(resolve.calls).toBe(1);
    expect(seen).toEqual([{ url: '/echo', method: 'POST', host: `hooks.example.com:${port}`, body: '{"a":1}' }]);
  });

  it('passes over a checked address that refuses the connection for the next one, and only then', async () => {
    // 127.0.0.2 has no server: refused at connect, so the request goes to the host's next address.
    const resolve = scriptedResolver(['127.0.0.2', '127.0.0.1']);
    const response = await fetchPublic(`http://hooks.example.com:${port}/echo`, { ...local, resolve, method: 'POST', body: 'x' });
    expect(response).toMatchObject({ status: 201, address: '127.0.0.1' });
    expect(seen).toHaveLength(1);
    // With no address left, the refusal is the answer.
    const refused = await fetchPublic(`http://hooks.example.com:${port}/echo`, { ...local, resolve: scriptedResolver(['127.0.0.2', '127.0.0.3']) }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ address: '127.0.0.3', code: 'ECONNREFUSED' });
  });

  it('returns a redirect as is', async () => {
    const response = await fetchPublic(`http://127.0.0.1:${port}/redirect`, local);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/hello');
    expect(seen.map((s) => s.url)).toEqual(['/redirect']);
  });

  it.each(['ftp://example.com/file', 'file:///etc/passwd', 'not a url', 'javascript:alert(1)'])('refuses %s', async (url) => {
    await expect(fetchPublic(url, local)).rejects.toBeInstanceOf(UnsupportedUrlError);
  });

  it('reports a host that does not resolve', async () => {
    const resolve: Resolver = () => Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }));
    await expect(fetchPublic('http://nowhere.invalid/', { ...limits, resolve })).rejects.toBeInstanceOf(HostNotFoundError);
  });

  it('times out a server that does not answer, and one whose answer never ends', async () => {
    // Neither ever finishes its answer: each request can end only by its time limit.
    await expect(fetchPublic(`http://127.0.0.1:${port}/slow`, { ...local, timeoutMs: 200 })).rejects.toBeInstanceOf(FetchTimeoutError);
    await expect(fetchPublic(`http://127.0.0.1:${port}/trickle`, { ...local, timeoutMs: 300, maxBytes: 1e6 })).rejects.toThrow('no complete answer within 0.3 s');
  });

  it('times out a resolver that hangs', async () => {
    const resolve: Resolver = () => new Promise(() => {});
    await expect(fetchPublic('http://hang.example.com/', { ...limits, timeoutMs: 100, resolve })).rejects.toBeInstanceOf(FetchTimeoutError);
  });

  it('stops at the size limit: an error by default, or a truncated body', async () => {
    await expect(fetchPublic(`http://127.0.0.1:${port}/big`, local)).rejects.toBeInstanceOf(ResponseTooLargeError);
    await expect(fetchPublic(`http://127.0.0.1:${port}/big-chunked`, local)).rejects.toThrow('the answer is larger than 1 KB');
    const response = await fetchPublic(`http://127.0.0.1:${port}/big-chunked`, { ...local, onTooLarge: 'truncate' });
    expect(response.truncated).toBe(true);
    expect(response.body.length).toBe(1024);
  });

  it('reads a body of a declared length whole, takes one cut short as a failed connection, and none where an answer has none (a 204)', async () => {
    const sized = await fetchPublic(`http://127.0.0.1:${port}/sized`, local);
    expect(sized.body).toEqual(Buffer.alloc(1000, 3));
    await expect(fetchPublic(`http://127.0.0.1:${port}/cut-short`, local)).rejects.toBeInstanceOf(ConnectionError);
    const empty = await fetchPublic(`http://127.0.0.1:${port}/no-content`, local);
    expect([empty.status, empty.body.length]).toEqual([204, 0]);
  });

  it('keeps what arrived of a body that breaks off, when asked: the status stands', async () => {
    const trickled = await fetchPublic(`http://127.0.0.1:${port}/trickle`, { ...local, timeoutMs: 300, maxBytes: 1e6, keepPartialBody: true });
    expect(trickled).toMatchObject({ status: 200, incomplete: true, truncated: false });
    expect(trickled.body.toString()).toMatch(/^x+$/);
    const cut = await fetchPublic(`http://127.0.0.1:${port}/cut-short`, { ...local, keepPartialBody: true });
    expect(cut).toMatchObject({ status: 200, incomplete: true, body: Buffer.alloc(10, 4) });
    const whole = await fetchPublic(`http://127.0.0.1:${port}/sized`, { ...local, keepPartialBody: true });
    expect(whole).toMatchObject({ status: 200, incomplete: false, body: Buffer.alloc(1000, 3) });
    // No answer at all is still a failure.
    await expect(fetchPublic(`http://127.0.0.1:${port}/slow`, { ...local, timeoutMs: 200, keepPartialBody: true })).rejects.toBeInstanceOf(FetchTimeoutError);
  });

  it('honours the caller\'s abort signal', async () => {
    const controller = new AbortController();
    const pending = fetchPublic(`http://127.0.0.1:${port}/slow`, { ...local, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('cancelled')), 50);
    await expect(pending).rejects.toThrow('cancelled');
  });
});
