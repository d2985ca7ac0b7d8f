import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WEBHOOK_HEADERS } from '@vp/contracts';

/** A request as it reached the receiver; `at` when its body had ended (before the answer went out). */
export type Arrival = { path: string; eventId: string; type: string; at: number };

/**
 * A customer's webhook receiver on this machine (plain HTTP, which the run's ALLOW_PRIVATE_URLS
 * accepts): records every request that arrives, by endpoint path, event id and time, and
 * acknowledges it (204).
 */
export async function startEventReceiver() {
  const arrivals: Arrival[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      arrivals.push({ path: req.url ?? '/', eventId: String(req.headers[WEBHOOK_HEADERS.eventId.toLowerCase()] ?? ''), type: String(req.headers[WEBHOOK_HEADERS.eventType.toLowerCase()] ?? ''), at: Date.now() });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    arrivals,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
