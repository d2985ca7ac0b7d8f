import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

export type SealBox = {
  /** AES-256-GCM under the current key; `boundTo` (an id) is the associated data. */
  seal(secret: string, boundTo: string): string;
  /** Opens with the current key, or with a previous one while a rotation settles. */
  open(sealed: string, boundTo: string): string;
  /** Whether it was sealed with the current key (false: seal it again). */
  sealedWithCurrentKey(sealed: string, boundTo: string): boolean;
};

/**
 * Secrets at rest (webhook endpoint secrets, a device-flow key until it is claimed): AES-256-GCM
 * under a key derived from a server key for one `purpose`, so a database dump alone opens nothing
 * and one purpose's key opens nothing of another's. The id a secret belongs to is its associated
 * data: a sealed value copied onto another row does not open. `previousKeys` still open what
 * they sealed; nothing is sealed with them.
 */
export function createSealBox(purpose: string, serverKey: string, previousKeys: readonly string[] = []): SealBox {
  const derive = (key: string) => Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), purpose, 32));
  const current = derive(serverKey);
  const keys = [current, ...previousKeys.map(derive)];
  return {
    seal(secret, boundTo) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', current, iv).setAAD(Buffer.from(boundTo));
      const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return ['v1', iv, sealed, cipher.getAuthTag()].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
    },
    open(sealed, boundTo) {
      let failure: unknown;
      for (const key of keys) {
        try {
          return openWith(key, sealed, boundTo);
        } catch (error) {
          failure = error;
        }
      }
      throw failure;
    },
    sealedWithCurrentKey(sealed, boundTo) {
      try {
        openWith(current, sealed, boundTo);
        return true;
      } catch {
        return false;
      }
    },
  };
}

function openWith(key: Buffer, sealed: string, boundTo: string): string {
  const [version, iv, data, tag] = sealed.split('.');
  if (version !== 'v1' || !iv || !data || !tag) throw new Error('Unreadable sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'))
    .setAAD(Buffer.from(boundTo))
    .setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}
