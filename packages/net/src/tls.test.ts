import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionError, fetchPublic } from './index.ts';

let server: Server;
let url: string;
let cert: string;

beforeAll(async () => {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec', curve: 'P-256', extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] }],
  });
  cert = pems.cert;
  server = createServer({ key: pems.private, cert: pems.cert }, (_req, res) => res.writeHead(200).end('secure hello'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://localhost:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('fetchPublic over https', () => {
  const options = { timeoutMs: 2000, maxBytes: 1024, allowPrivate: true };

  it('refuses a certificate no trusted authority signed', async () => {
    const error = await fetchPublic(url, options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).code).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
  });

  it('trusts the authorities it is given, checking the host name against the certificate', async () => {
    const response = await fetchPublic(url, { ...options, ca: cert });
    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe('secure hello');
  });
});
