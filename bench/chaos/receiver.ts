import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WEBHOOK_HEADERS } from '@vp/contracts';

export type Arrival = { path: string; eventId: string; type: string };

/**
 * A customer's webhook receiver on this machine (plain HTTP, which the run's ALLOW_PRIVATE_URLS
 * accepts): records every request that arrives, by endpoint path and event id, and acknowledges
 * it (204).
 */
export async function startEventReceiver() {
  const arrivals: Arrival[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      arrivals.push({ path: req.url ?? '/', eventId: String(req.headers[WEBHOOK_HEADERS.eventId.toLowerCase()] ?? ''), type: String(req.headers[WEBHOOK_HEADERS.eventType.toLowerCase()] ?? '') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    arrivals,
    /** Event ids that arrived at one endpoint more than once. */
    doubles: () => {
      const seen = new Map<string, number>();
      for (const a of arrivals) seen.set(`${a.path} ${a.eventId}`, (seen.get(`${a.path} ${a.eventId}`) ?? 0) + 1);
      return [...seen].filter(([, n]) => n > 1).map(([key, n]) => ({ key, times: n }));
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
