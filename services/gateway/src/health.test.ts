import { describe, expect } from 'vitest';
import { test, testConfig } from '@vp/testing';
import { Client, Connection } from '@temporalio/client';
import pino from 'pino';
import { createApp } from './app.ts';
import { createTestGateway, json } from './testing/gateway.ts';

describe('health', () => {
  test('/healthz answers while the process is alive; /readyz when PostgreSQL and Temporal answer', async ({ database }) => {
    const gateway = await createTestGateway(database);
    try {
      expect(await json(await gateway.app.request('/healthz'))).toEqual({ ok: true });
      const ready = await gateway.app.request('/readyz');
      expect(ready.status).toBe(200);
      expect(await json(ready)).toEqual({ ok: true, checks: { database: 'ok', temporal: 'ok' } });
    } finally {
      await gateway.close();
    }
  });

  test('/readyz is 503 in the error shape when Temporal cannot be reached, naming no address', async ({ database }) => {
    const connection = Connection.lazy({ address: '127.0.0.1:1', connectTimeout: 500 });
    const app = createApp({ config: testConfig(database.url), db: database.db, temporal: () => new Client({ connection }), log: pino({ level: 'silent' }) });
    const res = await app.request('/readyz');
    expect(res.status).toBe(503);
    const body = await json(res);
    expect(body).toEqual({ error: 'Not ready (temporal: unavailable).', code: 'unavailable', checks: { database: 'ok', temporal: 'unavailable' } });
    expect((await app.request('/healthz')).status).toBe(200);
  });
});
