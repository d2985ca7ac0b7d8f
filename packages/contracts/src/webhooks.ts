import { z } from 'zod';
import { Production } from './production.ts';
import { storable, StorableText } from './text.ts';

/** Event types a pipeline change publishes; each can be subscribed to. */
export const SUBSCRIBABLE_EVENT_TYPES = [
  'production.pitch_ready', 'production.skipped', 'production.greenlit', 'production.progress',
  'production.delivered', 'production.failed', 'production.declined', 'production.cancelled',
] as const;
export type SubscribableEventType = (typeof SUBSCRIBABLE_EVENT_TYPES)[number];

/** Every event type, `ping` (test events) included: sent always, never subscribed to. */
export const EVENT_TYPES = [...SUBSCRIBABLE_EVENT_TYPES, 'ping'] as const;
export const EventType = z.enum(EVENT_TYPES).meta({ id: 'EventType' });
export type EventType = z.infer<typeof EventType>;

/** An endpoint created without `events` gets these: every type but the opt-in `production.progress`. */
export const DEFAULT_EVENT_TYPES: readonly SubscribableEventType[] = SUBSCRIBABLE_EVENT_TYPES.filter((t) => t !== 'production.progress');

/** Endpoints a workspace may have. */
export const WEBHOOK_ENDPOINT_LIMIT = 10;
/** How long the previous secret keeps signing after a roll. */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;
export { ATTEMPT_MARGIN_MS } from './webhook-attempt.ts';
/** `lastResponseBody` keeps at most this many bytes. */
export const RESPONSE_BODY_LIMIT_BYTES = 4096;
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

const SubscribableEventType = z.enum(SUBSCRIBABLE_EVENT_TYPES);
/** 1 or more distinct subscribable types. */
export const EventSubscription = z
  .array(SubscribableEventType)
  .min(1)
  .refine((types) => new Set(types).size === types.length, 'List each event type once.')
  .meta({ description: `Event types to receive; distinct, \`ping\` excluded. Default: every type but \`production.progress\`.` });

export const WebhookEndpoint = z
  .object({
    id: z.uuid(),
    workspaceId: z.uuid(),
    url: z.url(),
    description: z.string().max(200).nullable(),
    events: z.array(SubscribableEventType),
    enabled: z.boolean(),
    disabledReason: z.string().nullable(),
    consecutiveFailures: z.int().min(0),
    lastAttemptAt: z.iso.datetime().nullable(),
    lastSuccessAt: z.iso.datetime().nullable(),
    previousSecretExpiresAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'WebhookEndpoint' });
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

export const WebhookEndpointWithSecret = WebhookEndpoint.extend({
  secret: z.string().startsWith(WEBHOOK_SECRET_PREFIX).meta({ description: 'The signing secret; shown only on create and on roll.' }),
}).meta({ id: 'WebhookEndpointWithSecret' });
export type WebhookEndpointWithSecret = z.infer<typeof WebhookEndpointWithSecret>;

export const WebhookUrl = z
  .url()
  .check(storable)
  .max(2000)
  .meta({ description: 'https, resolving only to public addresses (checked at create and again at each attempt).' });

export const CreateWebhookBody = z
  .object({
    workspaceId: z.uuid().optional(),
    url: WebhookUrl,
    description: StorableText.max(200).nullable().optional(),
    events: EventSubscription.optional(),
  })
  .meta({ id: 'CreateWebhookBody' });
export type CreateWebhookBody = z.infer<typeof CreateWebhookBody>;

export const UpdateWebhookBody = z
  .object({
    url: WebhookUrl.optional(),
    description: StorableText.max(200).nullable().optional(),
    events: EventSubscription.optional(),
    enabled: z.boolean().optional().meta({ description: 'Re-enabling resets `consecutiveFailures`.' }),
  })
  .meta({ id: 'UpdateWebhookBody' });
export type UpdateWebhookBody = z.infer<typeof UpdateWebhookBody>;

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'exhausted'] as const;

export const WebhookDelivery = z
  .object({
    id: z.uuid(),
    endpointId: z.uuid(),
    productionId: z.uuid().nullable(),
    event: EventType,
    eventId: z.uuid().meta({ description: 'The `Service-Event-Id` sent: stable across retries.' }),
    redeliveryOf: z.uuid().nullable().meta({ description: 'On a redelivery, the original event id.' }),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.int().min(0),
    nextAttemptAt: z.iso.datetime().nullable(),
    lastResponseStatus: z.int().nullable(),
    lastResponseBody: z.string().nullable().meta({ description: 'At most 4 KiB of the last answer.' }),
    lastError: z.string().nullable(),
    lastAttemptAt: z.iso.datetime().nullable(),
    deliveredAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const EventLinks = z
  .object({
    page: z.url(),
    greenlight: z.url().nullable().optional(),
    comment: z.url().nullable().optional(),
    decline: z.url().nullable().optional(),
    share: z.url().nullable().optional(),
    edit: z.url().nullable().optional(),
  })
  .meta({
    id: 'EventLinks',
    description: '`greenlight`, `comment` and `decline` are present only while the pitch awaits an answer: signed links minted for the receiving endpoint (null while greenlight links are switched off on the server); `share` and `edit` are filled once the video is delivered.',
  });
export type EventLinks = z.infer<typeof EventLinks>;

/** The body of every delivery request. */
export const WebhookEventPayload = z
  .object({
    id: z.uuid().meta({ description: 'Stable across retries; dedupe on it (also sent as `Service-Event-Id`).' }),
    type: EventType,
    createdAt: z.iso.datetime(),
    workspaceId: z.uuid(),
    redeliveryOf: z.uuid().optional(),
    data: z.object({
      /** Code files have `source` emptied, `patch` null and `sourceOmitted: true`. */
      production: Production.optional(),
      pitchMarkdown: z.string().nullable(),
      status: z.string().nullable(),
      links: EventLinks,
      endpointId: z.uuid().optional(),
      message: z.string().optional(),
    }).meta({ description: '`production` (absent on `ping`) has code files with `source` emptied, `patch` null and `sourceOmitted: true`; `endpointId` and `message` come with `ping`.' }),
  })
  .meta({ id: 'WebhookEventPayload' });
export type WebhookEventPayload = z.infer<typeof WebhookEventPayload>;

/** Delivery request headers. */
export const WEBHOOK_HEADERS = {
  signature: 'Service-Signature',
  eventId: 'Service-Event-Id',
  eventType: 'Service-Event-Type',
} as const;
