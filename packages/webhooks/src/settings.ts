import type { DeliveryPolicy } from './schedule.ts';

/** What the webhook domain needs from the configuration. */
export type WebhookSettings = DeliveryPolicy & {
  /** Webhooks switched on on this server (off: the routes answer 503 and nothing is published). */
  enabled: boolean;
  /** Greenlight links switched on (off: payloads carry no action links). */
  linksEnabled: boolean;
  serverKey: string;
  linkSecret: string;
  appUrl: string;
  allowPrivateUrls: boolean;
  timeoutMs: number;
};

/** The settings from a loaded configuration (structurally, so this package needs no config import). */
export function webhookSettings(config: {
  switches: { webhooks: boolean; links: boolean };
  secrets: { webhookKey: string; links: string };
  appUrl: string;
  allowPrivateUrls: boolean;
  webhooks: { retryScheduleMs: number[]; timeoutMs: number; disableAfterFailures: number; disableAfterMs: number };
}): WebhookSettings {
  return {
    enabled: config.switches.webhooks,
    linksEnabled: config.switches.links,
    serverKey: config.secrets.webhookKey,
    linkSecret: config.secrets.links,
    appUrl: config.appUrl,
    allowPrivateUrls: config.allowPrivateUrls,
    ...config.webhooks,
  };
}
