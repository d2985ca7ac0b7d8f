import { omitCodeSources, type EventLinks, type Production, type SubscribableEventType, type WebhookEventPayload } from '@vp/contracts';
import { mintActionLinks } from '@vp/links';
import { pitchMarkdown } from '@vp/pitch';

/** An event's `data` as stored with the event: everything but the links minted per endpoint. */
export type StoredEventData = Omit<WebhookEventPayload['data'], 'links'> & { links: Pick<EventLinks, 'page' | 'share' | 'edit'> };

/** The one-sentence status of each event, when its stage has one; progress says where the render is. */
export function statusSentence(type: SubscribableEventType, production: Production, lastProgress: string | null = null): string | null {
  const pitch = production.pitch;
  switch (type) {
    case 'production.pitch_ready':
      return pitch ? `Pitch version ${pitch.version} is ready for an answer: “${pitch.title}”.` : null;
    case 'production.skipped': {
      // The writer's reason is a sentence of its own: its end stop would double ours.
      const reason = (pitch?.verdictReason ?? 'the brief was judged not worth a video').replace(/[\s.!?…]+$/u, '');
      return `No video, and nothing was charged: ${reason}.`;
    }
    case 'production.greenlit':
      return `Greenlit; ${production.creditsCharged} credits charged and the video is queued.`;
    case 'production.progress':
      return lastProgress ?? 'Work on the video has started.';
    case 'production.delivered':
      return 'The video is ready.';
    case 'production.failed':
      return production.error ?? 'The production failed; the charge was refunded.';
    case 'production.declined':
      return 'The pitch was declined.';
    case 'production.cancelled':
      return 'The production was cancelled.';
  }
}

/** The payload data of a production event, as of the change it announces. */
export function productionEventData(type: SubscribableEventType, production: Production, lastProgress: string | null = null): StoredEventData {
  return {
    production: { ...production, brief: omitCodeSources(production.brief) },
    pitchMarkdown: production.pitch ? pitchMarkdown(production.pitch) : null,
    status: statusSentence(type, production, lastProgress),
    links: {
      page: production.pageUrl ?? '',
      share: production.delivery?.shareUrl ?? null,
      edit: production.delivery?.editUrl ?? null,
    },
  };
}

/** A test event's data. */
export function pingEventData(endpointId: string, appUrl: string): StoredEventData {
  return {
    pitchMarkdown: null,
    status: null,
    links: { page: `${appUrl}/webhooks/${endpointId}` },
    endpointId,
    message: 'A test event from the Video Production Service: your endpoint is reachable.',
  };
}

export type EventRecord = {
  id: string;
  type: string;
  workspaceId: string;
  redeliveryOf: string | null;
  data: StoredEventData;
  createdAt: Date;
};

/**
 * The exact body sent to one endpoint. Deterministic: every attempt of a delivery sends the
 * same bytes (the links are minted at the event's time, not the attempt's), unless greenlight
 * links were switched off or on in between: links that would answer 503 are not sent.
 */
export function deliveryBody(event: EventRecord, endpointId: string, options: { linkSecret: string; appUrl: string; linksEnabled: boolean }): string {
  const payload: WebhookEventPayload = {
    id: event.id,
    type: event.type as WebhookEventPayload['type'],
    createdAt: event.createdAt.toISOString(),
    workspaceId: event.workspaceId,
    ...(event.redeliveryOf ? { redeliveryOf: event.redeliveryOf } : {}),
    data: { ...event.data, links: eventLinks(event, endpointId, options) },
  };
  return JSON.stringify(payload);
}

function eventLinks(event: EventRecord, endpointId: string, options: { linkSecret: string; appUrl: string; linksEnabled: boolean }): EventLinks {
  const production = event.data.production;
  if (!production) return event.data.links;
  const { page, share = null, edit = null } = event.data.links;
  // The spec: action links are "present only while the pitch awaits an answer"; null then while links are switched off.
  const awaiting = event.type === 'production.pitch_ready' && production.stage === 'pitch_ready' && production.pitch;
  if (!awaiting) return { page, share, edit };
  const actions = options.linksEnabled
    ? mintActionLinks({ secret: options.linkSecret, appUrl: options.appUrl }, {
      productionId: production.id, pitchVersion: production.pitch!.version, recipient: { kind: 'webhook', endpointId }, mintedAt: event.createdAt,
    })
    : { greenlight: null, comment: null, decline: null };
  return { page, ...actions, share, edit };
}
