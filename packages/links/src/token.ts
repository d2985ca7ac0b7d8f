import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { LINK_LIFETIME_MS } from '@vp/contracts';

/** Who a link was sent to: a person by e-mail, or a webhook endpoint. */
export type LinkRecipient = { kind: 'email'; email: string } | { kind: 'webhook'; endpointId: string };

/** What a link token binds: one pitch version of one production, one recipient, an expiry. */
export type LinkClaims = { productionId: string; pitchVersion: number; recipient: LinkRecipient; expiresAt: Date };

const VERSION = 1;
const MAX_TOKEN_LENGTH = 1024;

// [version, productionId, pitchVersion, recipient, expiry in unix seconds]; `e:` an e-mail, `w:` an endpoint.
const Packed = z.tuple([
  z.literal(VERSION),
  z.uuid(),
  z.int().min(1),
  z.union([z.string().regex(/^e:.+@.+$/), z.string().regex(/^w:[0-9a-f-]{36}$/)]),
  z.int().min(0),
]);

function signature(secret: string, payload: string): Buffer {
  // Domain-separated, so no other signature made with this secret can pass for a link.
  return createHmac('sha256', secret).update(`greenlight-link.${payload}`).digest();
}

/** A signed, login-free token: base64url(claims) `.` base64url(HMAC-SHA256). */
export function mintLinkToken(secret: string, claims: LinkClaims): string {
  const recipient = claims.recipient.kind === 'email' ? `e:${claims.recipient.email.toLowerCase()}` : `w:${claims.recipient.endpointId}`;
  const packed = [VERSION, claims.productionId, claims.pitchVersion, recipient, Math.floor(claims.expiresAt.getTime() / 1000)];
  const payload = Buffer.from(JSON.stringify(packed)).toString('base64url');
  return `${payload}.${signature(secret, payload).toString('base64url')}`;
}

/**
 * The claims of a token this server signed; null for anything forged, altered or malformed.
 * Several secrets: the current one and, while a rotation settles, the one before it, so that
 * links already sent keep working until they expire.
 */
export function readLinkToken(secrets: string | readonly string[], token: string): LinkClaims | null {
  if (token.length > MAX_TOKEN_LENGTH) return null;
  const [payload, mac, ...rest] = token.split('.');
  if (!payload || !mac || rest.length) return null;
  // Compared as text: base64url decoding skips stray characters and ignores a last character's
  // spare bits, and a token must have one spelling only.
  const given = Buffer.from(mac);
  const signedBy = (secret: string) => {
    const expected = Buffer.from(signature(secret, payload).toString('base64url'));
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  if (![secrets].flat().some(signedBy)) return null;
  let parsed: z.infer<typeof Packed>;
  try {
    parsed = Packed.parse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
  } catch {
    return null;
  }
  const [, productionId, pitchVersion, who, expiry] = parsed;
  const recipient: LinkRecipient = who.startsWith('e:') ? { kind: 'email', email: who.slice(2) } : { kind: 'webhook', endpointId: who.slice(2) };
  return { productionId, pitchVersion, recipient, expiresAt: new Date(expiry * 1000) };
}

/** A link minted at `mintedAt` expires 7 days later (whole seconds, so minting is deterministic). */
export function linkExpiry(mintedAt: Date): Date {
  return new Date(Math.floor((mintedAt.getTime() + LINK_LIFETIME_MS) / 1000) * 1000);
}
