import { describe, expect, it } from 'vitest';
import { classifyAddress, isPublicAddress } from './address.ts';

describe('isPublicAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['0.0.0.0', 'unspecified'],
    ['240.0.0.1', 'reserved'],
    ['192.0.0.8', 'special-purpose'],
    ['192.0.2.1', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped'],
    ['::ffff:8.8.8.8', 'IPv4-mapped'],
    ['::ffff:0:a00:1', 'IPv4-translated'],
    ['::127.0.0.1', 'IPv4-compatible'],
    ['::10.0.0.1', 'IPv4-compatible'],
    ['64:ff9b::7f00:1', 'NAT64'],
    ['64:ff9b::a00:1', 'NAT64'],
    ['64:ff9b:1::1', 'local-use NAT64'],
    ['2002:7f00:1::', '6to4'],
    ['2002:c0a8:101::1', '6to4'],
    ['2001:0:4136:e378:8000:63bf:f5ff:fffe', 'Teredo'], // client 10.0.0.1
    ['2001:0:0a00:0001::1', 'Teredo'], // server 10.0.0.1
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['2001:2::1', 'benchmarking'],
    ['100::1', 'discard'],
    ['4000::1', 'not a global unicast'],
    ['not-an-ip', 'not an IP address'],
  ])('refuses %s (%s)', (ip, reason) => {
    const verdict = classifyAddress(ip);
    expect(verdict.public).toBe(false);
    expect(verdict.public ? '' : verdict.reason).toContain(reason);
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.215.14', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '2a00:1450:4001::200e',
    '64:ff9b::808:808', '2002:808:808::1', '[2606:4700:4700::1111]'])('accepts %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });

  it('names the kind of address a transition address leads to, not the address', () => {
    expect(classifyAddress('2002:0a00:0001::1')).toEqual({ public: false, reason: 'a 6to4 address that leads to a private network address' });
  });
});
