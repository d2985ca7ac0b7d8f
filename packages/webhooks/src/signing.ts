import { WEBHOOK_HEADERS } from '@vp/contracts';
import { computeSignature, formatSignatureHeader } from '@vp/webhook-verify';

/**
 * The headers of one delivery request: `Service-Signature` with a `v1` per secret that signs
 * (two during a roll's overlap), the event id and type. Signed over `<t>.<raw body>`,
 * exactly as `@vp/webhook-verify` checks it.
 */
export function signedHeaders(input: { secrets: readonly string[]; eventId: string; type: string; body: string; now: Date }): Record<string, string> {
  const timestamp = Math.floor(input.now.getTime() / 1000);
  return {
    'content-type': 'application/json',
    'user-agent': 'VideoProductionService-Webhooks/1',
    [WEBHOOK_HEADERS.signature]: formatSignatureHeader({
      timestamp,
      signatures: input.secrets.map((secret) => computeSignature(secret, timestamp, input.body)),
    }),
    [WEBHOOK_HEADERS.eventId]: input.eventId,
    [WEBHOOK_HEADERS.eventType]: input.type,
  };
}
