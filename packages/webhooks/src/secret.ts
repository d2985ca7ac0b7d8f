import { randomBytes } from 'node:crypto';
import { createSealBox, type SealBox } from '@vp/accounts';
import { WEBHOOK_SECRET_PREFIX } from '@vp/contracts';

/** A new endpoint secret: `whsec_` and 32 random bytes, base64url. */
export function generateSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** Sealed endpoint secrets; the endpoint id is what each is bound to. */
export type SecretBox = SealBox;

/**
 * Endpoint secrets at rest: AES-256-GCM under a key derived from the server key
 * (WEBHOOK_SECRET_KEY), so a database dump alone cannot sign. The endpoint id is the
 * associated data: a sealed secret copied onto another endpoint does not open. `previousKeys`
 * (WEBHOOK_SECRET_KEY_PREVIOUS) still open what they sealed; nothing is sealed with them.
 */
export function createSecretBox(serverKey: string, previousKeys: readonly string[] = []): SecretBox {
  return createSealBox('webhook-endpoint-secret', serverKey, previousKeys);
}
