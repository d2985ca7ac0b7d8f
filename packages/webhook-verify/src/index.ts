export { computeSignature, type Payload } from './signature.ts';
export { parseSignatureHeader, formatSignatureHeader, type SignatureHeader } from './header.ts';
export {
  verifyWebhook,
  assertWebhook,
  WebhookVerificationError,
  DEFAULT_TOLERANCE_SECONDS,
  type VerifyWebhookOptions,
  type VerifyWebhookResult,
  type VerifyFailureReason,
} from './verify.ts';
