import { describe, expect, it } from 'vitest';
import { clientAddress } from './client-address.ts';

describe('the caller\'s address, for limits per address', () => {
  it('is the socket peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(clientAddress('198.51.100.7', '203.0.113.9', 0)).toBe('203.0.113.9');
  });

  it('behind one trusted proxy is the entry that proxy appended, not one the client wrote', () => {
    expect(clientAddress('198.51.100.7', '10.0.0.2', 1)).toBe('198.51.100.7');
    expect(clientAddress('1.2.3.4, 5.6.7.8 ,198.51.100.7', '10.0.0.2', 1)).toBe('198.51.100.7');
  });

  it('behind two trusted proxies is the second entry from the right', () => {
    expect(clientAddress('1.2.3.4, 198.51.100.7, 192.0.2.44', '10.0.0.2', 2)).toBe('198.51.100.7');
    expect(clientAddress('198.51.100.7', '10.0.0.2', 2)).toBe('198.51.100.7');
  });

  it('is the socket peer when the entry read is no address: no text of any length becomes a bucket', () => {
    expect(clientAddress(`${'x'.repeat(10_000)}`, '10.0.0.2', 1)).toBe('10.0.0.2');
    expect(clientAddress('anything-at-all, 198.51.100.7', '10.0.0.2', 2)).toBe('10.0.0.2');
    expect(clientAddress('2001:db8::7', '10.0.0.2', 1)).toBe('2001:db8::7');
  });

  it('drops the port some proxies add to the entry', () => {
    expect(clientAddress('203.0.113.7:51234', '10.0.0.2', 1)).toBe('203.0.113.7');
    expect(clientAddress('[2001:db8::7]:443', '10.0.0.2', 1)).toBe('2001:db8::7');
    expect(clientAddress('[2001:db8::7]', '10.0.0.2', 1)).toBe('2001:db8::7');
  });

  it('falls back to the socket peer when the proxy sent no X-Forwarded-For', () => {
    expect(clientAddress(undefined, '10.0.0.2', 1)).toBe('10.0.0.2');
    expect(clientAddress(' , ', undefined, 1)).toBe('unknown');
  });
});
