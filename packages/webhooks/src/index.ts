export { attemptDelivery, storedResponseBody, type AttemptDeps, type AttemptInput, type AttemptResult } from './attempt.ts';
export { createPing, createRedelivery, findDelivery, queryDeliveries, toDelivery, type DeliveryWithEvent } from './deliveries.ts';
export {
  insertEndpoint, markEndpointDeleted, findEndpoint, queryEndpoints, resealSecrets, rotateSecret, signingSecrets, toEndpoint, saveEndpointChanges,
} from './endpoints.ts';
export { deliveryRef, overdueDeliveries, pendingDeliveriesOf, recordEvent, unattemptedDeliveries, type DeliveryRef } from './outbox.ts';
export { deliveryBody, pingEventData, productionEventData, statusSentence, type EventRecord, type StoredEventData } from './payload.ts';
export { PRUNE_EVERY_MS, pruneDeliveryLog } from './retention.ts';
export { describeDuration, maxAttempts, retryDelay, shouldSwitchOff, type DeliveryPolicy } from './schedule.ts';
export { createSecretBox, generateSecret, type SecretBox } from './secret.ts';
export { secretBoxFor, webhookSettings, type WebhookSettings } from './settings.ts';
export { signedHeaders } from './signing.ts';
export { checkEndpointUrl, type UrlCheck } from './url.ts';
export * from './commands.ts';
