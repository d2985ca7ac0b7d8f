import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { describe, expect } from 'vitest';
import { AesGcmPayloadCodec } from '@vp/temporal-client';
import { test } from '@vp/testing';
import { createTestGateway, json } from '../testing/gateway.ts';

const TOKEN = 'codec-token-for-the-test-0123456789abcdef';

const it = test.extend('gateway', { scope: 'file' }, async ({ database }, { onCleanup }) => {
  const gateway = await createTestGateway(database, { env: { TEMPORAL_CODEC_TOKEN: TOKEN, TEMPORAL_UI_ORIGIN: 'http://127.0.0.1:8233' } });
  onCleanup(gateway.close);
  return gateway;
});

const asJson = (payload: Payload) => ({
  metadata: Object.fromEntries(Object.entries(payload.metadata ?? {}).map(([name, value]) => [name, Buffer.from(value!).toString('base64')])),
  data: Buffer.from(payload.data ?? []).toString('base64'),
});
const decode = (app: { request: (path: string, init: RequestInit) => Response | Promise<Response> }, path: string, body: unknown) =>
  app.request(path, { method: 'POST', headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1:8233' }, body: JSON.stringify(body) });

describe('the codec endpoint of the Temporal Web UI', () => {
  it('opens the payloads the service encrypted, for the UI\'s page, with the token as credential', async ({ gateway }) => {
    const codec = new AesGcmPayloadCodec(gateway.config.temporal.payloadKey);
    const value = { comment: 'Shorter, please', actor: 'link-email:4f0c' };
    const sealed = await codec.encode([defaultPayloadConverter.toPayload(value)]);
    const plain = defaultPayloadConverter.toPayload({ productionId: 'p1' });
    const res = await decode(gateway.app, `/codec/${TOKEN}/decode`, { payloads: [...sealed, plain].map(asJson) });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:8233');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const { payloads } = await json(res);
    const values = payloads.map((p: { metadata: Record<string, string>; data: string }) =>
      defaultPayloadConverter.fromPayload({ metadata: Object.fromEntries(Object.entries(p.metadata).map(([k, v]) => [k, Buffer.from(v, 'base64')])), data: Buffer.from(p.data, 'base64') }));
    expect(values).toEqual([value, { productionId: 'p1' }]);
    // The UI's preflight.
    const preflight = await gateway.app.request(`/codec/${TOKEN}/decode`, { method: 'OPTIONS', headers: { origin: 'http://127.0.0.1:8233', 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('X-Namespace');
  });

  it('is not found with a wrong token, and says what is wrong with a body that is not payloads', async ({ gateway }) => {
    for (const token of ['wrong', `${TOKEN}x`, TOKEN.slice(1)]) {
      const res = await decode(gateway.app, `/codec/${token}/decode`, { payloads: [] });
      expect(res.status, token).toBe(404);
      expect(res.headers.get('access-control-allow-origin'), token).toBeNull();
    }
    const bad = await decode(gateway.app, `/codec/${TOKEN}/decode`, { payloads: [{ data: 'not base64!' }] });
    expect(bad.status).toBe(400);
    expect(await json(bad)).toMatchObject({ issues: [{ path: 'payloads.0.data' }] });
    const unopenable = await decode(gateway.app, `/codec/${TOKEN}/decode`, { payloads: [{ metadata: { encoding: Buffer.from('binary/encrypted').toString('base64') }, data: 'AAAA' }] });
    expect(unopenable.status).toBe(400);
  });

  it('does not exist unless TEMPORAL_CODEC_TOKEN is set', async ({ database }) => {
    const plain = await createTestGateway(database);
    try {
      expect((await decode(plain.app, `/codec/${TOKEN}/decode`, { payloads: [] })).status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
