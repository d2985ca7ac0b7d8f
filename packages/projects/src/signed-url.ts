import { createHmac, timingSafeEqual } from 'node:crypto';
import { RENDER_VIDEO_URL_TTL_MS } from '@vp/contracts';

/**
 * A render's video address, signed so it works without a key for 24 hours:
 * `{BASE_URL}/renders/<id>/video.mp4?expires=<unix seconds>&signature=<HMAC-SHA256, base64url>`.
 */
export function signedRenderVideoUrl(options: { baseUrl: string; secret: string; now?: Date }, renderId: string): string {
  const expires = Math.floor(((options.now ?? new Date()).getTime() + RENDER_VIDEO_URL_TTL_MS) / 1000);
  return `${renderVideoPath(options.baseUrl, renderId)}?expires=${expires}&signature=${signature(options.secret, renderId, expires)}`;
}

export const renderVideoPath = (baseUrl: string, renderId: string) => `${baseUrl}/renders/${renderId}/video.mp4`;

export type SignatureCheck = { ok: true; expiresAt: Date } | { ok: false; reason: 'invalid' | 'expired' };

/** Checks a signed address's query: the signature first (constant time), then the expiry. */
export function checkRenderVideoSignature(
  secret: string, renderId: string, query: { expires?: string; signature?: string }, now = new Date(),
): SignatureCheck {
  const expires = Number(query.expires);
  if (!query.signature || !/^\d{1,12}$/.test(query.expires ?? '')) return { ok: false, reason: 'invalid' };
  const expected = Buffer.from(signature(secret, renderId, expires));
  const given = Buffer.from(query.signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'invalid' };
  if (expires * 1000 <= now.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, expiresAt: new Date(expires * 1000) };
}

function signature(secret: string, renderId: string, expires: number): string {
  return createHmac('sha256', secret).update(`render-video.${renderId}.${expires}`).digest('base64url');
}
