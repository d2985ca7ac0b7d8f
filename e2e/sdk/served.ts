import type { Db } from '@vp/db';
import { freePort } from '@vp/devstack';
import { createTestGateway } from '@vp/gateway/testing';
import { createTestStack } from '../stack.ts';
import { serveApp } from '@vp/gateway/server';
import type { RateLimiter } from '@vp/db';

type Database = { url: string; db: Db };
type Options = { env?: Record<string, string>; limiter?: RateLimiter; render?: boolean; worker?: NonNullable<Parameters<typeof createTestStack>[1]>['worker'] };

/**
 * The real gateway on a real port over the test file's database, as a customer's client reaches it.
 * With `workers`, the whole service (workers, and with `render` a render worker) behind it.
 */
export async function servedGateway(database: Database, options: Options & { workers?: boolean } = {}) {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = { BASE_URL: baseUrl, ...options.env };
  const stack = options.workers
    ? await createTestStack(database, { env, limiter: options.limiter, render: options.render, worker: options.worker })
    : await createTestGateway(database, { env, limiter: options.limiter });
  const server = serveApp(stack.app, { hostname: '127.0.0.1', port, bodyIdleTimeoutMs: stack.config.http.bodyIdleTimeoutMs });
  await new Promise<void>((resolve) => (server.listening ? resolve() : server.once('listening', () => resolve())));
  return {
    baseUrl,
    stack,
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      await stack.close();
    },
  };
}
