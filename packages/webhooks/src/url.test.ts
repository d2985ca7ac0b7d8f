import { describe, expect, it } from 'vitest';
import type { Resolver } from '@vp/net';
import { checkEndpointUrl } from './url.ts';

const strict = { allowPrivate: false };
const resolvesTo = (...addresses: string[]): Resolver => async () => addresses;

describe('endpoint URLs', () => {
  it('must use https', async () => {
    expect(await checkEndpointUrl('http://hooks.example.com/', { ...strict, resolve: resolvesTo('93.184.215.14') }))
      .toMatchObject({ ok: false, reason: 'scheme' });
    expect(await checkEndpointUrl('https://hooks.example.com/', { ...strict, resolve: resolvesTo('93.184.215.14') })).toEqual({ ok: true });
  });

  it.each([
    ['loopback', 'https://127.0.0.1/hook'],
    ['loopback by name', 'https://localhost/hook'],
    ['loopback IPv6', 'https://[::1]/hook'],
    ['private 10/8', 'https://10.1.2.3/hook'],
    ['private 172.16/12', 'https://172.20.0.1/hook'],
    ['private 192.168/16', 'https://192.168.1.1/hook'],
    ['link-local (cloud metadata)', 'https://169.254.169.254/latest/meta-data'],
    ['CGNAT', 'https://100.64.0.1/hook'],
    ['multicast', 'https://224.0.0.1/hook'],
    ['unspecified', 'https://0.0.0.0/hook'],
    ['broadcast', 'https://255.255.255.255/hook'],
    ['IPv4-mapped IPv6', 'https://[::ffff:127.0.0.1]/hook'],
    ['IPv4-mapped IPv6 (hex)', 'https://[::ffff:a00:1]/hook'],
    ['unique-local IPv6', 'https://[fd12:3456::1]/hook'],
    ['link-local IPv6', 'https://[fe80::1]/hook'],
    ['NAT64 to a private address', 'https://[64:ff9b::a00:1]/hook'],
    ['decimal-encoded loopback', 'https://2130706433/hook'],
    ['octal-encoded loopback', 'https://0177.0.0.1/hook'],
  ])('are refused when they point at a %s address', async (_kind, url) => {
    const check = await checkEndpointUrl(url, strict);
    expect(check).toMatchObject({ ok: false, reason: 'not_public' });
  });

  it('are refused when a host name resolves to any address that is not public', async () => {
    expect(await checkEndpointUrl('https://intranet.example.com/', { ...strict, resolve: resolvesTo('10.0.0.7') }))
      .toMatchObject({ ok: false, reason: 'not_public', message: expect.stringContaining('intranet.example.com resolves to a private network address') });
    // Which address: this server's view of the network is not told.
    expect(await checkEndpointUrl('https://intranet.example.com/', { ...strict, resolve: resolvesTo('10.0.0.7') }))
      .toMatchObject({ message: expect.not.stringContaining('10.0.0.7') });
    expect(await checkEndpointUrl('https://mixed.example.com/', { ...strict, resolve: resolvesTo('93.184.215.14', '192.168.0.2') }))
      .toMatchObject({ ok: false, reason: 'not_public' });
  });

  it('are refused when the host does not resolve', async () => {
    const resolve: Resolver = () => Promise.reject(new Error('ENOTFOUND'));
    expect(await checkEndpointUrl('https://nowhere.invalid/', { ...strict, resolve })).toMatchObject({ ok: false, reason: 'not_found' });
  });

  it('with the development switch, may be http and private or loopback', async () => {
    expect(await checkEndpointUrl('http://localhost:4000/hook', { allowPrivate: true })).toEqual({ ok: true });
    expect(await checkEndpointUrl('https://10.1.2.3/hook', { allowPrivate: true })).toEqual({ ok: true });
    expect(await checkEndpointUrl('ftp://10.1.2.3/hook', { allowPrivate: true })).toMatchObject({ ok: false, reason: 'scheme' });
  });
});
