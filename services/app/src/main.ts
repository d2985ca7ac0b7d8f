import { serve } from '@hono/node-server';
import { Connection } from '@temporalio/client';
import pino from 'pino';
import { sweepPasskeyChallenges, sweepSessions, sweepSignInTokens } from '@vp/accounts';
import { loadConfig, requireDatabaseUrl } from '@vp/config';
import { createDb, createRateLimiter } from '@vp/db';
import { mailerFromConfig } from '@vp/mail';
import { closeGracefully } from '@vp/net';
import { temporalClient } from '@vp/temporal-client';
import { createApp } from './app.tsx';

const config = loadConfig();
const log = pino({ level: config.logLevel, base: { service: 'app' } });
const db = createDb(requireDatabaseUrl(config));
const limiter = createRateLimiter(db);
const mailer = mailerFromConfig(config);
if (!mailer) log.warn('SMTP_URL is not set: sign-in links and invitations are not e-mailed, so nobody can sign in by e-mail');
// Connected lazily: the pages serve while Temporal is down; commands and key answers then answer 503.
const temporal = temporalClient(Connection.lazy({ address: config.temporal.address ?? 'localhost:7233' }), config);
const app = createApp({ config, db, log, mailer, limiter, temporal: () => temporal });

// Ended sessions, used or expired links, unanswered passkey prompts and past rate-limit windows.
const sweep = setInterval(() => {
  void Promise.all([sweepSessions(db), sweepSignInTokens(db), sweepPasskeyChallenges(db), limiter.sweep()])
    .catch((err: unknown) => log.warn({ err }, 'sweep failed'));
}, 60_000);
const server = serve({ fetch: app.fetch, hostname: config.http.host, port: config.app.port }, (info) =>
  log.info({ port: info.port, appUrl: config.appUrl }, 'app listening'),
);

/** Stop taking requests, let those in flight finish (10 s at most), then let go of the database. */
async function shutdown() {
  clearInterval(sweep);
  await closeGracefully(server);
  await db.$disconnect();
  log.info('app stopped');
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void shutdown());
