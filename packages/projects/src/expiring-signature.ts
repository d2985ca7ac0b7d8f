import { createHmac, timingSafeEqual } from 'node:crypto';

export type SignatureCheck = { ok: true; expiresAt: Date } | { ok: false; reason: 'invalid' | 'expired' };

/**
 * The query that makes an address work without a key until `now + ttlMs`:
 * `expires=<unix seconds>&signature=<HMAC-SHA256 of "<subject>.<expires>", base64url>`.
 * The subject names what the address serves, so that no signature opens another thing.
 */
export function expiringSignature(secret: string, subject: string, ttlMs: number, now = new Date()): string {
  const expires = Math.floor((now.getTime() + ttlMs) / 1000);
  return `expires=${expires}&signature=${signature(secret, subject, expires)}`;
}

/** Checks a signed address's query: the signature first (constant time), then the expiry. */
export function checkExpiringSignature(secret: string, subject: string, query: { expires?: string; signature?: string }, now = new Date()): SignatureCheck {
  const expires = Number(query.expires);
  if (!query.signature || !/^\d{1,12}$/.test(query.expires ?? '')) return { ok: false, reason: 'invalid' };
  const expected = Buffer.from(signature(secret, subject, expires));
  const given = Buffer.from(query.signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'invalid' };
  if (expires * 1000 <= now.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, expiresAt: new Date(expires * 1000) };
}

function signature(secret: string, subject: string, expires: number): string {
  return createHmac('sha256', secret).update(`${subject}.${expires}`).digest('base64url');
}
