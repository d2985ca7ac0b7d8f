import { checkExpiringSignature, expiringSignature, type SignatureCheck } from './expiring-signature.ts';

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
  const path = `${options.baseUrl}/storyboards/${still.productionId}/${still.pitchVersion}/${still.shotIndex}.jpg`;
  return `${path}?${expiringSignature(options.secret, subject(still), STILL_URL_TTL_MS, options.now)}`;
}

/** Checks a still address's query. */
export function checkStillSignature(secret: string, still: StillRef, query: { expires?: string; signature?: string }, now = new Date()): SignatureCheck {
  return checkExpiringSignature(secret, subject(still), query, now);
}

const subject = (still: StillRef) => `storyboard-still.${still.productionId}.${still.pitchVersion}.${still.shotIndex}`;
