import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SignatureCheck } from './signed-url.ts';

/** A storyboard still's address works this long after it was drawn (DECISIONS: valid 7 days, as a pitch's links). */
export const STILL_URL_TTL_MS = 7 * 24 * 3600 * 1000;

export type StillRef = { productionId: string; pitchVersion: number; shotIndex: number };

/** Where a shot's still is stored. */
export const stillKey = (still: StillRef) => `storyboards/${still.productionId}/v${still.pitchVersion}/shot-${still.shotIndex}.jpg`;

/**
 * A shot's still, signed so that it works without a key (in an e-mail, on a link page) for 7 days:
 * `{BASE_URL}/storyboards/<production>/<version>/<shot>.jpg?expires=<unix seconds>&signature=<HMAC-SHA256, base64url>`.
 */
export function signedStillUrl(options: { baseUrl: string; secret: string; now?: Date }, still: StillRef): string {
  const expires = Math.floor(((options.now ?? new Date()).getTime() + STILL_URL_TTL_MS) / 1000);
  return `${options.baseUrl}/storyboards/${still.productionId}/${still.pitchVersion}/${still.shotIndex}.jpg?expires=${expires}&signature=${signature(options.secret, still, expires)}`;
}

/** Checks a still address's query: the signature first (constant time), then the expiry. */
export function checkStillSignature(secret: string, still: StillRef, query: { expires?: string; signature?: string }, now = new Date()): SignatureCheck {
  const expires = Number(query.expires);
  if (!query.signature || !/^\d{1,12}$/.test(query.expires ?? '')) return { ok: false, reason: 'invalid' };
  const expected = Buffer.from(signature(secret, still, expires));
  const given = Buffer.from(query.signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'invalid' };
  if (expires * 1000 <= now.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, expiresAt: new Date(expires * 1000) };
}

function signature(secret: string, still: StillRef, expires: number): string {
  return createHmac('sha256', secret).update(`storyboard-still.${still.productionId}.${still.pitchVersion}.${still.shotIndex}.${expires}`).digest('base64url');
}
