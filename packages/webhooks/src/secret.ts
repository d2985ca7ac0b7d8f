import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from '@vp/contracts';

/** A new endpoint secret: `whsec_` and 32 random bytes, base64url. */
export function generateSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export type SecretBox = {
  seal(secret: string, endpointId: string): string;
  /** Opens with the server key, or with a previous one while a rotation settles. */
  open(sealed: string, endpointId: string): string;
  /** Whether it was sealed with the current server key (false: reseal it, see `resealSecrets`). */
  sealedWithCurrentKey(sealed: string, endpointId: string): boolean;
};

/**
 * Endpoint secrets at rest: AES-256-GCM under a key derived from the server key
 * (WEBHOOK_SECRET_KEY), so a database dump alone cannot sign. The endpoint id is the
 * associated data: a sealed secret copied onto another endpoint does not open. `previousKeys`
 * (WEBHOOK_SECRET_KEY_PREVIOUS) still open what they sealed; nothing is sealed with them.
 */
export function createSecretBox(serverKey: string, previousKeys: readonly string[] = []): SecretBox {
  const current = derive(serverKey);
  const keys = [current, ...previousKeys.map(derive)];
  return {
    seal(secret, endpointId) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', current, iv).setAAD(Buffer.from(endpointId));
      const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return ['v1', iv, sealed, cipher.getAuthTag()].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
    },
    open(sealed, endpointId) {
      let failure: unknown;
      for (const key of keys) {
        try {
          return openWith(key, sealed, endpointId);
        } catch (error) {
          failure = error;
        }
      }
      throw failure;
    },
    sealedWithCurrentKey(sealed, endpointId) {
      try {
        openWith(current, sealed, endpointId);
        return true;
      } catch {
        return false;
      }
    },
  };
}

function openWith(key: Buffer, sealed: string, endpointId: string): string {
  const [version, iv, data, tag] = sealed.split('.');
  if (version !== 'v1' || !iv || !data || !tag) throw new Error('Unreadable sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'))
    .setAAD(Buffer.from(endpointId))
    .setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}

function derive(serverKey: string): Buffer {
  return Buffer.from(hkdfSync('sha256', serverKey, Buffer.alloc(0), 'webhook-endpoint-secret', 32));
}
