import { timingSafeEqual } from 'node:crypto';
import type { Payload } from '@temporalio/common';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { ApiError, type ValidationIssue } from '@vp/contracts';
import type { Config } from '@vp/config';
import { AesGcmPayloadCodec } from '@vp/temporal-client';
import type { GatewayEnv } from '../deps.ts';

/** Temporal's remote codec protocol: payloads as JSON, their bytes in base64. */
const Base64 = z.string().max(16 * 1024 * 1024).regex(/^[A-Za-z0-9+/]*={0,2}$/, 'base64');
const Payloads = z.object({
  payloads: z.array(z.object({ metadata: z.record(z.string(), Base64).default({}), data: Base64.default('') })).max(1000),
});

/**
 * The codec endpoint the Temporal Web UI reads payloads through (`--ui-codec-endpoint`,
 * TEMPORAL_CODEC_ENDPOINT): `POST /codec/<token>/decode`, the token being the credential
 * (TEMPORAL_CODEC_TOKEN; unset, there is no endpoint). Only the UI's own page may call it from a
 * browser (TEMPORAL_UI_ORIGIN). It decodes, never encodes: the UI's write actions are off.
 */
export function codecRoutes(config: Config) {
  const app = new Hono<GatewayEnv>();
  const { token, uiOrigin } = config.temporal.codec;
  if (!token) return app;
  const codec = new AesGcmPayloadCodec(config.temporal.payloadKey, config.temporal.previousPayloadKey ? [config.temporal.previousPayloadKey] : []);
  const cors = (c: Context) => {
    c.header('Access-Control-Allow-Origin', uiOrigin);
    c.header('Access-Control-Allow-Credentials', 'true');
    c.header('Vary', 'Origin');
  };
  const authorized = (given: string) => given.length === token.length && timingSafeEqual(Buffer.from(given), Buffer.from(token));

  app.options('/codec/:token/decode', (c) => {
    cors(c);
    c.header('Access-Control-Allow-Methods', 'POST');
    c.header('Access-Control-Allow-Headers', 'Content-Type, X-Namespace, Authorization');
    c.header('Access-Control-Max-Age', '600');
    return c.body(null, 204);
  });

  app.post('/codec/:token/decode', async (c) => {
    // Not found, like any other unknown address: a wrong token says nothing of the right one.
    if (!authorized(c.req.param('token'))) throw new ApiError(404, `No route POST ${c.req.path}.`, 'not_found');
    cors(c);
    c.header('Cache-Control', 'no-store');
    const parsed = Payloads.safeParse(await c.req.json().catch(() => null));
    if (!parsed.success) {
      const issues: ValidationIssue[] = parsed.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
      throw new ApiError(400, 'Send { payloads: [{ metadata, data }] } with base64 bytes.', undefined, {}, issues);
    }
    const decoded = await codec.decode(parsed.data.payloads.map(fromJson)).catch((error: unknown) => {
      throw new ApiError(400, `A payload could not be decoded: ${(error as Error).message}`);
    });
    return c.json({ payloads: decoded.map(toJson) });
  });
  return app;
}

const fromJson = ({ metadata, data }: { metadata: Record<string, string>; data: string }): Payload => ({
  metadata: Object.fromEntries(Object.entries(metadata).map(([name, value]) => [name, Buffer.from(value, 'base64')])),
  data: Buffer.from(data, 'base64'),
});

const toJson = (payload: Payload) => ({
  metadata: Object.fromEntries(Object.entries(payload.metadata ?? {}).map(([name, value]) => [name, Buffer.from(value ?? []).toString('base64')])),
  data: Buffer.from(payload.data ?? []).toString('base64'),
});
