import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import pino from 'pino';
import { keyRequestBox } from '@vp/accounts';
import { createRateLimiter, type Db } from '@vp/db';
import { keyRequestWorkflows, keyRequestWorkflowSettings } from '@vp/temporal-client';
import { smtpMailer } from '@vp/mail';
import { connectTemporal, testConfig } from '@vp/testing';
import { freePort } from '@vp/devstack';
import { createApp } from '../app.tsx';
import type { AppDeps } from '../env.ts';
import type { MailCatcher } from './mail-catcher.ts';

/**
 * The app over a test file's database, served on a free port at http://localhost:<port> (the
 * passkeys' relying party is a host name, never an IP address), its mail going to `mail`'s SMTP
 * server through the real mailer. `now` moves the rules' clock; the rate limiter keeps real time.
 * With `keyRequests`, the approval page answers requests through the run's Temporal server, on
 * this app's task queues (a gateway and a worker started with its prefix serve the same requests).
 */
export async function startTestApp(
  database: { url: string; db: Db },
  options: { env?: Record<string, string>; mail?: MailCatcher; now?: () => Date; limiterNow?: () => number; keyRequests?: boolean } = {},
) {
  const port = await freePort();
  const appUrl = `http://localhost:${port}`;
  const config = testConfig(database.url, { APP_PORT: String(port), APP_URL: appUrl, ...options.env });
  const deps: AppDeps = {
    config, db: database.db, log: pino({ level: 'silent' }),
    mailer: options.mail ? smtpMailer({ url: options.mail.smtpUrl, from: config.mail.from }) : null,
    limiter: createRateLimiter(database.db, options.limiterNow), now: options.now,
  };
  const temporal = options.keyRequests ? await connectTemporal({ payloadKey: config.temporal.payloadKey }) : null;
  if (temporal) {
    deps.keyRequests = {
      db: database.db, appUrl, pendingMs: config.keyRequests.pendingMs, box: keyRequestBox(config.secrets),
      workflows: keyRequestWorkflows(temporal.client, keyRequestWorkflowSettings(config)),
    };
  }
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
      await temporal?.close();
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
