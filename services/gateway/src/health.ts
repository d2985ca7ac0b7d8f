import { Hono } from 'hono';
import { pingDatabase } from '@vp/db';
import type { GatewayDeps, GatewayEnv } from './deps.ts';

const TIMEOUT_MS = 2000;

/**
 * /healthz: the process is alive. /readyz: PostgreSQL and Temporal answer. Both are public: a
 * failing check says only `unavailable`; what failed, with addresses, goes to the log.
 */
export function healthRoutes(deps: GatewayDeps) {
  const app = new Hono<GatewayEnv>();
  app.get('/healthz', (c) => c.json({ ok: true }));
  app.get('/readyz', async (c) => {
    const failed = (check: string) => (error: Error) => c.var.log.warn({ check, err: error }, 'readiness check failed');
    const [database, temporal] = await Promise.all([
      probe(() => pingDatabase(deps.db), failed('database')),
      probe(() => deps.temporal().connection.workflowService.getSystemInfo({}), failed('temporal')),
    ]);
    const checks = { database, temporal };
    if (database === 'ok' && temporal === 'ok') return c.json({ ok: true, checks });
    const failing = Object.entries(checks).filter(([, state]) => state !== 'ok').map(([name, state]) => `${name}: ${state}`);
    return c.json({ error: `Not ready (${failing.join('; ')}).`, code: 'unavailable', checks }, 503);
  });
  return app;
}

async function probe(check: () => Promise<unknown>, failed: (error: Error) => void): Promise<'ok' | 'unavailable'> {
  try {
    await Promise.race([check(), new Promise((_, reject) => setTimeout(() => reject(new Error('timed out')), TIMEOUT_MS).unref())]);
    return 'ok';
  } catch (error) {
    failed(error as Error);
    return 'unavailable';
  }
}
