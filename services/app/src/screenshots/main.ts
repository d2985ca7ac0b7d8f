/**
 * `pnpm screenshots`: each page of the app at 375 px and 1280 px wide, as PNGs in docs/screenshots/
 * (the README shows them). A throw-away PostgreSQL with demo data, the app on a free port, Chromium.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import pg from 'pg';
import { Connection } from '@temporalio/client';
import pino from 'pino';
import { loadConfig } from '@vp/config';
import { createDb, createRateLimiter } from '@vp/db';
import { migrate } from '@vp/db/migrate';
import { temporalClient } from '@vp/temporal-client';
import { databaseUrl, freePort, startEmbeddedPostgres } from '@vp/devstack';
import { createApp } from '../app.tsx';
import { launchBrowser, newContext } from '../testing/chromium.ts';
import { seedDemo } from './seed.ts';

const out = fileURLToPath(new URL('../../../../docs/screenshots/', import.meta.url));
const PAGES = [
  { name: 'sign-in', path: '/sign-in', signedIn: false },
  { name: 'productions', path: '/', signedIn: true },
  { name: 'workspace', path: '/workspace', signedIn: true },
  { name: 'keys', path: '/keys', signedIn: true },
  { name: 'account', path: '/account', signedIn: true },
  { name: 'new-production', path: '/productions/new', signedIn: true },
  { name: 'production', path: '/productions/{productionId}', signedIn: true },
  { name: 'webhooks', path: '/webhooks', signedIn: true },
  { name: 'webhook-endpoint', path: '/webhooks/{endpointId}', signedIn: true },
];

const dir = await mkdtemp(join(tmpdir(), 'vp-screenshots-'));
const postgres = await startEmbeddedPostgres({ dataDir: join(dir, 'pg'), port: await freePort() });
try {
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query('CREATE DATABASE screenshots');
  await admin.end();
  const url = databaseUrl(postgres.url, 'screenshots');
  await migrate(url);
  const db = createDb(url);
  const port = await freePort();
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: url, APP_PORT: String(port), ALLOW_DEV_SECRETS: 'true' });
  // Pages only read: no command runs, so Temporal is never reached.
  const temporal = temporalClient(Connection.lazy({ address: '127.0.0.1:1' }), config);
  const app = createApp({ config, db, log: pino({ level: 'silent' }), mailer: null, limiter: createRateLimiter(db), temporal: () => temporal });
  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port });
  const { token, ...ids } = await seedDemo(db);
  const browser = await launchBrowser();
  await mkdir(out, { recursive: true });
  for (const width of [375, 1280] as const) {
    const context = await newContext(browser, width);
    for (const page of PAGES) {
      if (page.signedIn) await context.addCookies([{ name: 'vp_session', value: token, url: config.appUrl, httpOnly: true, sameSite: 'Lax' }]);
      else await context.clearCookies();
      const tab = await context.newPage();
      await tab.goto(`${config.appUrl}${page.path.replace(/\{(\w+)\}/, (_, name: keyof typeof ids) => ids[name])}`);
      await tab.screenshot({ path: join(out, `${page.name}-${width}.png`), fullPage: true });
      await tab.close();
      console.log(`docs/screenshots/${page.name}-${width}.png`);
    }
    await context.close();
  }
  await browser.close();
  server.close();
  await db.$disconnect();
} finally {
  await postgres.stop();
  await rm(dir, { recursive: true, force: true });
}
