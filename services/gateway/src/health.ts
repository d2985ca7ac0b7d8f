import { Hono } from 'hono';
import type { GatewayDeps, GatewayEnv } from './env.ts';

const TIMEOUT_MS = 2000;

/** /healthz: the process is alive. /readyz: PostgreSQL and Temporal answer. */
export function healthRoutes(deps: GatewayDeps) {
  const app = new Hono<GatewayEnv>();
  app.get('/healthz', (c) => c.json({ ok: true }));
  app.get('/readyz', async (c) => {
    const [database, temporal] = await Promise.all([
      probe(() => deps.db.$queryRaw`SELECT 1`),
      probe(() => deps.temporal().connection.workflowService.getSystemInfo({})),
    ]);
    const checks = { database, temporal };
    if (database === 'ok' && temporal === 'ok') return c.json({ ok: true, checks });
    const failing = Object.entries(checks).filter(([, state]) => state !== 'ok').map(([name, state]) => `${name}: ${state}`);
    return c.json({ error: `Not ready (${failing.join('; ')}).`, code: 'unavailable', checks }, 503);
  });
  return app;
}

async function probe(check: () => Promise<unknown>): Promise<string> {
  try {
    await Promise.race([check(), new Promise((_, reject) => setTimeout(() => reject(new Error('timed out')), TIMEOUT_MS).unref())]);
    return 'ok';
  } catch (error) {
    return (error as Error).message.split('\n')[0] ?? 'unreachable';
  }
}
