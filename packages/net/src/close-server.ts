/** An HTTP server as Node makes it (HTTP/2 servers have no per-connection closing). */
type ClosableServer = {
  close(callback: () => void): unknown;
  closeIdleConnections?(): void;
  closeAllConnections?(): void;
};

/**
 * Stops taking requests and lets those in flight finish; connections still open after `graceMs`
 * (a slow download, a held SSE stream) are closed then.
 */
export async function closeGracefully(server: ClosableServer, graceMs = 10_000): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections?.();
  const force = setTimeout(() => server.closeAllConnections?.(), graceMs);
  await closed;
  clearTimeout(force);
}
