/**
 * The caller's address, for limits per address. Each of the `trustedProxies` in front of the
 * service appends the address it was reached from to X-Forwarded-For, so the client is that many
 * entries from the right. Entries further left are whatever the client sent: never trusted.
 */
export function clientAddress(forwardedFor: string | undefined, socketAddress: string | undefined, trustedProxies: number): string {
  const hops = forwardedFor?.split(',').map((hop) => hop.trim()).filter(Boolean) ?? [];
  if (trustedProxies > 0 && hops.length > 0) return hops[Math.max(0, hops.length - trustedProxies)]!;
  return socketAddress ?? 'unknown';
}
