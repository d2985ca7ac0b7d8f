import type { DeliveryPolicy } from './schedule.ts';
import { createSecretBox, type SecretBox } from './secret.ts';

/** What the webhook domain needs from the configuration. */
export type WebhookSettings = DeliveryPolicy & {
  /** Webhooks switched on on this server (off: the routes answer 503 and nothing is published). */
  enabled: boolean;
  /** Greenlight links switched on (off: payloads carry no action links). */
  linksEnabled: boolean;
  serverKey: string;
  /** While WEBHOOK_SECRET_KEY is rotated: the one before, which still opens what it sealed. */
  previousServerKey: string | null;
  linkSecret: string;
  appUrl: string;
  allowPrivateUrls: boolean;
  timeoutMs: number;
};

/** The settings from a loaded configuration (structurally, so this package needs no config import). */
export function webhookSettings(config: {
  switches: { webhooks: boolean; links: boolean };
  secrets: { webhookKey: string; previousWebhookKey: string | null; links: string };
  appUrl: string;
  allowPrivateUrls: boolean;
  webhooks: { retryScheduleMs: number[]; timeoutMs: number; disableAfterFailures: number; disableAfterMs: number };
}): WebhookSettings {
  return {
    enabled: config.switches.webhooks,
    linksEnabled: config.switches.links,
    serverKey: config.secrets.webhookKey,
    previousServerKey: config.secrets.previousWebhookKey,
    linkSecret: config.secrets.links,
    appUrl: config.appUrl,
    allowPrivateUrls: config.allowPrivateUrls,
    ...config.webhooks,
  };
}

/** The box endpoint secrets are sealed in: the server key, and the previous one while a rotation settles. */
export function secretBoxFor(settings: Pick<WebhookSettings, 'serverKey' | 'previousServerKey'>): SecretBox {
  return createSecretBox(settings.serverKey, settings.previousServerKey ? [settings.previousServerKey] : []);
}
