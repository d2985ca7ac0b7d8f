import { timingSafeEqual } from 'node:crypto';
import { parseSignatureHeader } from './header.ts';
import { computeSignature, type Payload } from './signature.ts';

export const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

export interface VerifyWebhookOptions {
  /** The raw request body, exactly as received (do not parse and re-serialise it). */
  payload: Payload;
  /** The `Service-Signature` header value. */
  header: string | string[] | null | undefined;
  /** The endpoint secret (`whsec_...`); several are accepted while you roll yours. */
  secret: string | readonly string[];
  /** Largest allowed distance between the signature's timestamp and `now`. Default 300. */
  toleranceSeconds?: number;
  /** The receiver's clock. Default: the current time. */
  now?: Date;
}

export type VerifyFailureReason =
  | 'missing_header'
  | 'malformed_header'
  | 'no_signature'
  | 'timestamp_out_of_tolerance'
  | 'signature_mismatch';

export type VerifyWebhookResult = { ok: true; timestamp: number } | { ok: false; reason: VerifyFailureReason };

export class WebhookVerificationError extends Error {
  readonly reason: VerifyFailureReason;

  constructor(reason: VerifyFailureReason) {
    super(`Webhook signature verification failed: ${reason}`);
    this.reason = reason;
    this.name = 'WebhookVerificationError';
  }
}

const HEX_SHA256 = /^[0-9a-f]{64}$/i;

/**
 * Checks a delivery's `Service-Signature`; accepts when any `v1` matches any secret. Throws a
 * TypeError, before looking at the request, when the receiver is set up wrong: no secret, an
 * empty one (anyone can sign with it: an unset environment variable often gives one), or a
 * tolerance that is not a number of seconds (NaN would let any old request through).
 */
export function verifyWebhook(options: VerifyWebhookOptions): VerifyWebhookResult {
  const { payload, secret, toleranceSeconds = DEFAULT_TOLERANCE_SECONDS, now = new Date() } = options;
  const secrets = typeof secret === 'string' ? [secret] : secret;
  if (!Array.isArray(secrets) || !secrets.length || secrets.some((key) => typeof key !== 'string' || !key.replace(/^whsec_/, ''))) {
    throw new TypeError('verifyWebhook needs the endpoint\'s secret (whsec_…): none or an empty one was given.');
  }
  if (!Number.isFinite(toleranceSeconds) || toleranceSeconds < 0) {
    throw new TypeError(`verifyWebhook's toleranceSeconds must be a number of seconds, 0 or more (got ${String(toleranceSeconds)}).`);
  }
  const header = Array.isArray(options.header) ? options.header.join(',') : options.header;
  if (!header) return { ok: false, reason: 'missing_header' };
  const parsed = parseSignatureHeader(header);
  if (!parsed) return { ok: false, reason: 'malformed_header' };
  const candidates = parsed.signatures.filter((s) => HEX_SHA256.test(s)).map((s) => Buffer.from(s, 'hex'));
  if (candidates.length === 0) return { ok: false, reason: 'no_signature' };
  if (Math.abs(now.getTime() / 1000 - parsed.timestamp) > toleranceSeconds) {
    return { ok: false, reason: 'timestamp_out_of_tolerance' };
  }
  for (const key of secrets) {
    const expected = Buffer.from(computeSignature(key, parsed.timestamp, payload), 'hex');
    // Check every candidate (no early exit) so timing reveals nothing about which one matched.
    let matched = false;
    for (const candidate of candidates) {
      if (candidate.length === expected.length && timingSafeEqual(candidate, expected)) matched = true;
    }
    if (matched) return { ok: true, timestamp: parsed.timestamp };
  }
  return { ok: false, reason: 'signature_mismatch' };
}

/** Like verifyWebhook, but throws a WebhookVerificationError instead of returning a failure. */
export function assertWebhook(options: VerifyWebhookOptions): { timestamp: number } {
  const result = verifyWebhook(options);
  if (!result.ok) throw new WebhookVerificationError(result.reason);
  return { timestamp: result.timestamp };
}
