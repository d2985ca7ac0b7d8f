import { createHmac } from 'node:crypto';

/** The raw request body exactly as received: bytes, or the string those bytes decode to. */
export type Payload = string | Uint8Array;

/**
 * HMAC-SHA256 over `<t>.<raw body>`, hex encoded.
 * The key is the UTF-8 bytes of the whole endpoint secret, `whsec_` prefix included,
 * so a receiver can paste the secret as shown and never decode it.
 */
export function computeSignature(secret: string, timestamp: number, payload: Payload): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(`${timestamp}.`)
    .update(typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload)
    .digest('hex');
}
