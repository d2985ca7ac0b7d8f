import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import pino from 'pino';
import { createBlobStore, type BlobStore } from '@vp/blobs';
import type { Config } from '@vp/config';
import { createRateLimiter, type Db } from '@vp/db';
import { smtpMailer } from '@vp/mail';
import { connectTemporal, testConfig } from '@vp/testing';
import { freePort } from '@vp/devstack';
import { createApp } from '../app.tsx';
import type { AppDeps } from '../env.ts';
import type { MailCatcher } from './mail-catcher.ts';

/** What runs beside the app (workers, a render worker): started with the app's settings, stopped with it. */
export type Beside = (stack: { config: Config; temporal: Awaited<ReturnType<typeof connectTemporal>>; database: { url: string; db: Db }; blobs: BlobStore }) => Promise<{ close: () => Promise<unknown> }>;

export type TestAppOptions = {
  env?: Record<string, string>; mail?: MailCatcher; now?: () => Date; limiterNow?: () => number;
  /** Whole-stack tests (e2e/) start workers here, so that pitches are written and videos made. */
  beside?: Beside;
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
  const beside = await options.beside?.({ config, temporal, database, blobs });
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
      await beside?.close();
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
