import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import pino from 'pino';
import { createRateLimiter, type Db } from '@vp/db';
import { smtpMailer } from '@vp/mail';
import { connectTemporal, testConfig } from '@vp/testing';
import { createRenderWorker, runRenderWorker } from '@vp/render-worker';
import { startTestWorkers } from '@vp/worker/testing';
import { createBlobStore } from '@vp/blobs';
import { freePort } from '@vp/devstack';
import { createApp } from '../app.tsx';
import type { AppDeps } from '../env.ts';
import type { MailCatcher } from './mail-catcher.ts';

type TestAppOptions = {
  env?: Record<string, string>; mail?: MailCatcher; now?: () => Date; limiterNow?: () => number;
  /** Real workers on the file's task queues: pitches are written, greenlights answered. With `render`, a render worker makes the videos too. */
  workers?: boolean; render?: boolean;
};

/**
 * The app over a test file's database and the run's Temporal server, served on a free port at
 * http://localhost:<port> (the passkeys' relying party is a host name, never an IP address), its
 * mail going to `mail`'s SMTP server through the real mailer. `now` moves the rules' clock; the
 * rate limiter keeps real time.
 */
export async function startTestApp(database: { url: string; db: Db }, options: TestAppOptions = {}) {
  const port = await freePort();
  const appUrl = `http://localhost:${port}`;
  const config = testConfig(database.url, { APP_PORT: String(port), APP_URL: appUrl, PRODUCTION_STEP_TIMEOUT_MS: '5000', ...options.env });
  const temporal = await connectTemporal({ payloadKey: config.temporal.payloadKey });
  const blobs = createBlobStore(config.blobs);
  const deps: AppDeps = {
    config, db: database.db, log: pino({ level: 'silent' }),
    mailer: options.mail ? smtpMailer({ url: options.mail.smtpUrl, from: config.mail.from }) : null,
    limiter: createRateLimiter(database.db, options.limiterNow), now: options.now, temporal: () => temporal.client, blobs,
  };
  const workers = options.workers || options.render ? await startTestWorkers(database, { config, temporal }) : null;
  const stop = new AbortController();
  const rendering = options.render && runRenderWorker(await createRenderWorker({
    config, connection: temporal.nativeConnection, db: database.db, blobs, workflowBundle: temporal.workflowBundle,
  }), stop.signal);
  const app = createApp(deps);
  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return {
    app, deps, config, url: appUrl, port: (server.address() as AddressInfo).port,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ('closeAllConnections' in server) server.closeAllConnections();
      });
      stop.abort();
      await Promise.all([rendering, workers?.close()]);
      await temporal.close();
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof startTestApp>>;

/**
 * A rate-limiter clock in which every request falls in a minute of its own: for browser tests,
 * whose many sign-ins from one address would otherwise meet the sign-in limit (app.test.ts tests it).
 */
export function newWindowEachTime(): () => number {
  let minute = 0;
  return () => Date.UTC(2030, 0, 1) + minute++ * 60_000;
}
