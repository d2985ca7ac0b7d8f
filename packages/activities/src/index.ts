export { createProductionActivities, type ProductionActivityDeps } from './productions/index.ts';
export { createEventPublisher, type EventPublisher, type EventPublisherDeps } from './publish.ts';
export { createWebhookActivities, type WebhookActivityDeps } from './webhooks.ts';
export { sendLinkEmails, type LinkEmailDeps } from './link-emails.ts';
export { keepRunning } from './keep-running.ts';
export { createKeyRequestActivities } from './key-requests.ts';
