import { isIP } from 'node:net';

/**
 * The caller's address, for limits per address. Each of the `trustedProxies` in front of the
 * service appends the address it was reached from to X-Forwarded-For, so the client is that many
 * entries from the right. Entries further left are whatever the client sent: never trusted. Some
 * proxies add the client's port (`203.0.113.7:51234`, `[2001:db8::7]:443`): it is dropped. An
 * entry that is no address at all counts as the socket peer's, so that no text of any length
 * becomes a bucket.
 */
export function clientAddress(forwardedFor: string | undefined, socketAddress: string | undefined, trustedProxies: number): string {
  const hops = forwardedFor?.split(',').map((hop) => hop.trim()).filter(Boolean) ?? [];
  const entry = trustedProxies > 0 ? hops[Math.max(0, hops.length - trustedProxies)] : undefined;
  const client = entry && withoutPort(entry);
  return client && isIP(client) ? client : (socketAddress ?? 'unknown');
}

function withoutPort(entry: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(entry);
  if (bracketed) return bracketed[1]!;
  const v4 = /^([\d.]+):\d+$/.exec(entry);
  return v4 ? v4[1]! : entry;
}
