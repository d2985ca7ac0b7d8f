import { RENDER_VIDEO_URL_TTL_MS } from '@vp/contracts';
import { checkExpiringSignature, expiringSignature, type SignatureCheck } from './expiring-signature.ts';

export type { SignatureCheck } from './expiring-signature.ts';

/**
 * A render's video address, signed so it works without a key for 24 hours:
 * `{BASE_URL}/renders/<id>/video.mp4?expires=<unix seconds>&signature=<HMAC-SHA256, base64url>`.
 */
export function signedRenderVideoUrl(options: { baseUrl: string; secret: string; now?: Date }, renderId: string): string {
  return `${renderVideoPath(options.baseUrl, renderId)}?${expiringSignature(options.secret, `render-video.${renderId}`, RENDER_VIDEO_URL_TTL_MS, options.now)}`;
}

export const renderVideoPath = (baseUrl: string, renderId: string) => `${baseUrl}/renders/${renderId}/video.mp4`;

/** Checks a render video address's query. */
export function checkRenderVideoSignature(
  secret: string, renderId: string, query: { expires?: string; signature?: string }, now = new Date(),
): SignatureCheck {
  return checkExpiringSignature(secret, `render-video.${renderId}`, query, now);
}
