import { Connection } from '@temporalio/client';
import pino from 'pino';
import { loadConfig } from '@vp/config';
import { createDb } from '@vp/db';
import { temporalClient } from '@vp/temporal-client';
import { createApp } from './app.ts';

/**
 * The document `/v1/openapi.json` serves, built without a running service: the SDK's types are
 * generated from it at build time. Nothing is connected; the routes are only described.
 */
export async function buildOpenApiDocument(baseUrl = 'https://api.example.com'): Promise<Record<string, unknown>> {
  const config = loadConfig({ NODE_ENV: 'development', ALLOW_DEV_SECRETS: 'true', BASE_URL: baseUrl, LOG_LEVEL: 'silent' });
  // A pool that is never used opens no connection.
  const db = createDb('postgresql://localhost:1/none');
  // A lazy connection that nothing calls: the domain wants a client, the document no call.
  const connection = Connection.lazy({ address: 'localhost:1' });
  const client = temporalClient(connection, config);
  try {
    const app = createApp({ config, db, temporal: () => client, log: pino({ level: 'silent' }) });
    const response = await app.request('/v1/openapi.json');
    return (await response.json()) as Record<string, unknown>;
  } finally {
    await connection.close().catch(() => {});
    await db.$disconnect();
  }
}
