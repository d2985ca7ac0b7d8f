import { isIP } from 'node:net';

/**
 * The caller's address, for limits per address. Each of the `trustedProxies` in front of the
 * service appends the address it was reached from to X-Forwarded-For, so the client is that many
 * entries from the right. Entries further left are whatever the client sent: never trusted. An
 * entry that is not an address (a request that did not come through every proxy) is not a
 * bucket of its own either: it counts as the socket peer's.
 */
export function clientAddress(forwardedFor: string | undefined, socketAddress: string | undefined, trustedProxies: number): string {
  const hops = forwardedFor?.split(',').map((hop) => hop.trim()).filter(Boolean) ?? [];
  const client = trustedProxies > 0 ? hops[Math.max(0, hops.length - trustedProxies)] : undefined;
  if (client !== undefined && isIP(client)) return client;
  return socketAddress ?? 'unknown';
}
