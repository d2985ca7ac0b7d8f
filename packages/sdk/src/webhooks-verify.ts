// `@vp/sdk/webhooks`: a receiver verifies what the service signs with the very code the service's
// own tests check deliveries with. Apart from the core: it uses node:crypto (Node, Deno and Bun have it).
export {
  verifyWebhook, assertWebhook, WebhookVerificationError, DEFAULT_TOLERANCE_SECONDS, computeSignature, parseSignatureHeader, formatSignatureHeader,
  type VerifyWebhookOptions, type VerifyWebhookResult, type VerifyFailureReason, type SignatureHeader,
} from '@vp/webhook-verify';
