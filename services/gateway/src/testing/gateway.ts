import { Writable } from 'node:stream';
import { Client, Connection } from '@temporalio/client';
import pino from 'pino';
import { onTestFinished } from 'vitest';
import { createBlobStore, type BlobStore } from '@vp/blobs';
import type { Config } from '@vp/config';
import type { Db } from '@vp/db';
import { connectTemporal, testConfig } from '@vp/testing';
import { createApp } from '../app.ts';
import { McpSessions, type SessionLimits } from '../mcp/sessions.ts';
import type { RateLimiter } from '../rate-limit/fixed-window.ts';

/** The gateway over a test file's database and the run's Temporal server, with its log lines kept. */
export async function createTestGateway(
  database: { url: string; db: Db },
  options: { env?: Record<string, string>; limiter?: RateLimiter; config?: Config; mcpSessionLimits?: SessionLimits } = {},
) {
  const config = options.config ?? testConfig(database.url, options.env);
  const temporal = await connectTemporal({ payloadKey: config.temporal.payloadKey });
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) logs.push(JSON.parse(line));
      done();
    },
  });
  const log = pino({ level: 'info', base: { service: 'gateway' } }, sink);
  const blobs = createBlobStore(config.blobs);
  // Subscriptions read every 250 ms here: a test hears of a change soon after it happens.
  const mcpSessions = new McpSessions(options.mcpSessionLimits);
  const app = createApp({ config, db: database.db, temporal: () => temporal.client, log, blobs, mcp: { sessions: mcpSessions, subscriptionPollMs: 250 } }, options.limiter);
  const close = async () => {
    await mcpSessions.closeAll();
    await temporal.close();
  };
  return { app, config, temporal, logs, blobs, mcpSessions, close };
}

/** The app of a test gateway over another Temporal client: one nobody answers for, or one whose namespace does not exist. */
export function appOverTemporal(gateway: { config: Config; blobs: BlobStore }, db: Db, temporal: Client) {
  return createApp({ config: gateway.config, db, temporal: () => temporal, log: pino({ level: 'silent' }), blobs: gateway.blobs });
}

/** A Temporal client nobody answers for, closed when the test ends. */
export function unreachableTemporal(): Client {
  // Nothing listens at port 1; without the client's retries a call fails at once rather than after its backoff.
  const connection = Connection.lazy({ address: '127.0.0.1:1', interceptors: [] });
  onTestFinished(() => connection.close());
  return new Client({ connection });
}

/** Builds request options for `app.request()` with an API key and an optional JSON body. */
export function withKey(apiKey: string | null, init: { method?: string; json?: unknown; headers?: Record<string, string> } = {}): RequestInit {
  const headers: Record<string, string> = { ...init.headers };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  return { method: init.method ?? (init.json !== undefined ? 'POST' : 'GET'), headers, ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}) };
}

/** A response's JSON body, loosely typed for assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests assert on arbitrary JSON
export const json = (res: Response): Promise<any> => res.json();
