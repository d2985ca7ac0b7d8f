import { Connection } from '@temporalio/client';
import pino from 'pino';
import { createBlobStore } from '@vp/blobs';
import { loadConfig, requireDatabaseUrl } from '@vp/config';
import { createDb } from '@vp/db';
import { closeGracefully } from '@vp/net';
import { temporalClient } from '@vp/temporal-client';
import { createApp } from './app.ts';
import { McpSessions } from './mcp/sessions.ts';
import { createRateLimiter } from './rate-limit/fixed-window.ts';
import { serveApp } from './server.ts';

const config = loadConfig();
const log = pino({ level: config.logLevel, base: { service: 'gateway' } });
const db = createDb(requireDatabaseUrl(config));
const connection = Connection.lazy({ address: config.temporal.address ?? 'localhost:7233' });
const temporal = temporalClient(connection, config);
const limiter = createRateLimiter(db);
const mcpSessions = new McpSessions();
const app = createApp({ config, db, temporal: () => temporal, log, blobs: createBlobStore(config.blobs), mcp: { sessions: mcpSessions } }, limiter);

const sweep = setInterval(() => limiter.sweep().catch((err) => log.warn({ err }, 'rate-limit sweep failed')), 60_000);
const server = serveApp(app, { hostname: config.http.host, port: config.http.port, bodyIdleTimeoutMs: config.http.bodyIdleTimeoutMs }, (port) =>
  log.info({ port, baseUrl: config.baseUrl }, 'gateway listening'),
);

/**
 * Stop taking requests, end the MCP sessions (their notification streams would hold connections
 * open), let requests in flight finish (10 s at most), then let go of the database.
 */
async function shutdown() {
  clearInterval(sweep);
  const closed = closeGracefully(server);
  await mcpSessions.closeAll();
  await closed;
  await connection.close().catch(() => {});
  await db.$disconnect();
  log.info('gateway stopped');
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void shutdown());
