import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes, base64url: a session, sign-in link or CSRF token. */
export function randomSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** SHA-256, hex: what is stored of a key or token, never the token itself. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
