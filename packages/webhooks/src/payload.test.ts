import { describe, expect, it } from 'vitest';
import { Production, WebhookEventPayload, type Production as ProductionType } from '@vp/contracts';
import { readLinkToken } from '@vp/links';
import { deliveryBody, pingEventData, productionEventData, statusSentence, type EventRecord } from './payload.ts';

const APP = 'https://app.example.com';
const LINKS = { linkSecret: 'test-link-signing-secret-0123456789abcdef', appUrl: APP, linksEnabled: true };
const ENDPOINT = '0b9d3a43-3f0e-4a59-8d2c-6c9a7f1b2e33';
const PRODUCTION_ID = '3f1c6a52-8a8e-4a57-9a43-0b6a5b0f8e11';
const WORKSPACE_ID = '7e2a5c10-1b3d-4f6e-9a8b-2c4d6e8f0a1b';

function production(overrides: Partial<ProductionType> = {}): ProductionType {
  return Production.parse({
    id: PRODUCTION_ID, workspaceId: WORKSPACE_ID, stage: 'pitch_ready',
    source: { kind: 'api', externalId: 'rel-2.4', origin: null },
    brief: {
      intent: 'Announce faster exports',
      code: [{ path: 'src/encoder.ts', source: 'export const secretSauce = 1;', patch: '+ secretSauce', digest: 'Streaming encoder', score: 0.9 }],
    },
    pitch: {
      version: 2, title: 'Exports, twice as fast', summary: 'A short tour of the streaming encoder.',
      shots: [{ index: 0, title: 'Before and after', durationMs: 10_000, visual: 'Two progress bars race.' }],
      estimatedCredits: 10, createdAt: '2026-11-23T09:00:00.000Z',
    },
    greenlight: null, greenlightMode: 'manual', delivery: null, projectId: null, creditsCharged: 0, revisionsLeft: 2, error: null,
    createdAt: '2026-11-23T08:59:00.000Z', updatedAt: '2026-11-23T09:00:00.000Z', terminal: false, pageUrl: `${APP}/productions/${PRODUCTION_ID}`,
    ...overrides,
  });
}

const event = (type: EventRecord['type'], data: EventRecord['data'], extra: Partial<EventRecord> = {}): EventRecord => ({
  id: 'c2b1a0f9-8e7d-4c6b-9a59-483726150f4e', type, workspaceId: WORKSPACE_ID, redeliveryOf: null, data,
  createdAt: new Date('2026-11-23T09:00:01.000Z'), ...extra,
});

const parse = (body: string) => WebhookEventPayload.parse(JSON.parse(body));

describe('the event payload', () => {
  it('is exactly the spec\'s shape: id, type, createdAt, workspaceId and data', () => {
    const body = deliveryBody(event('production.pitch_ready', productionEventData('production.pitch_ready', production())), ENDPOINT, LINKS);
    const payload = parse(body);
    expect(Object.keys(payload)).toEqual(['id', 'type', 'createdAt', 'workspaceId', 'data']);
    expect(payload).toMatchObject({ id: 'c2b1a0f9-8e7d-4c6b-9a59-483726150f4e', type: 'production.pitch_ready', createdAt: '2026-11-23T09:00:01.000Z', workspaceId: WORKSPACE_ID });
    expect(Object.keys(payload.data)).toEqual(['production', 'pitchMarkdown', 'status', 'links']);
    expect(payload.data.pitchMarkdown).toContain('# Exports, twice as fast');
    expect(payload.data.status).toBe('Pitch version 2 is ready for an answer: “Exports, twice as fast”.');
  });

  it('omits code sources: source emptied, patch null, sourceOmitted; paths, digests and scores remain', () => {
    const payload = parse(deliveryBody(event('production.pitch_ready', productionEventData('production.pitch_ready', production())), ENDPOINT, LINKS));
    expect(payload.data.production!.brief.code).toEqual([expect.objectContaining({
      path: 'src/encoder.ts', source: '', patch: null, sourceOmitted: true, digest: 'Streaming encoder', score: 0.9,
    })]);
    expect(JSON.stringify(payload)).not.toContain('secretSauce');
  });

  it('carries greenlight, comment and decline links minted for this endpoint and this pitch version while the pitch awaits an answer', () => {
    const data = productionEventData('production.pitch_ready', production());
    const links = parse(deliveryBody(event('production.pitch_ready', data), ENDPOINT, LINKS)).data.links;
    expect(links.page).toBe(`${APP}/productions/${PRODUCTION_ID}`);
    for (const action of ['greenlight', 'comment', 'decline'] as const) {
      const url = new URL(links[action]!);
      expect(url.origin + url.pathname.replace(/[^/]+$/, '')).toBe(`${APP}/go/`);
      expect(url.searchParams.get('action')).toBe(action);
      expect(readLinkToken(LINKS.linkSecret, url.pathname.split('/').at(-1)!)).toEqual({
        productionId: PRODUCTION_ID, pitchVersion: 2, recipient: { kind: 'webhook', endpointId: ENDPOINT }, expiresAt: new Date('2026-11-30T09:00:01.000Z'),
      });
    }
    expect(links).toMatchObject({ share: null, edit: null });
    // Another endpoint gets links of its own.
    const other = parse(deliveryBody(event('production.pitch_ready', data), '11111111-2222-4333-8444-555555555555', LINKS)).data.links;
    expect(other.greenlight).not.toBe(links.greenlight);
  });

  it('is the same bytes on every attempt', () => {
    const record = event('production.pitch_ready', productionEventData('production.pitch_ready', production()));
    expect(deliveryBody(record, ENDPOINT, LINKS)).toBe(deliveryBody(record, ENDPOINT, LINKS));
  });

  it('has no action links once the pitch was answered (the spec: present only while it awaits one), and null ones while links are switched off', () => {
    const greenlit = production({ stage: 'greenlit', creditsCharged: 10 });
    const payload = parse(deliveryBody(event('production.greenlit', productionEventData('production.greenlit', greenlit)), ENDPOINT, LINKS));
    expect(payload.data.links).toStrictEqual({ page: greenlit.pageUrl, share: null, edit: null });
    expect(payload.data.status).toBe('Greenlit; 10 credits charged and the video is queued.');
    const off = parse(deliveryBody(event('production.pitch_ready', productionEventData('production.pitch_ready', production())), ENDPOINT, { ...LINKS, linksEnabled: false }));
    expect(off.data.links).toStrictEqual({ page: off.data.production?.pageUrl, greenlight: null, comment: null, decline: null, share: null, edit: null });
  });

  it('fills share and edit once the video is delivered', () => {
    const delivery = {
      shareUrl: `${APP}/share/abc`, projectId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', editUrl: `${APP}/projects/9a8b`,
      exportId: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d', deliveredAt: '2026-11-23T10:00:00.000Z',
    };
    const delivered = production({ stage: 'delivered', delivery, terminal: true });
    const payload = parse(deliveryBody(event('production.delivered', productionEventData('production.delivered', delivered)), ENDPOINT, LINKS));
    expect(payload.data.links).toStrictEqual({ page: delivered.pageUrl, share: delivery.shareUrl, edit: delivery.editUrl });
    expect(payload.data.status).toBe('The video is ready.');
  });

  it('marks a redelivery with the original event id', () => {
    const record = event('production.pitch_ready', productionEventData('production.pitch_ready', production()), {
      id: 'd3c2b1a0-9f8e-4d7c-8b6a-594837261504', redeliveryOf: 'c2b1a0f9-8e7d-4c6b-9a59-483726150f4e',
    });
    const payload = parse(deliveryBody(record, ENDPOINT, LINKS));
    expect(payload).toMatchObject({ id: 'd3c2b1a0-9f8e-4d7c-8b6a-594837261504', redeliveryOf: 'c2b1a0f9-8e7d-4c6b-9a59-483726150f4e' });
  });

  it('of a test event is a ping naming the endpoint, with a message', () => {
    const payload = parse(deliveryBody(event('ping', pingEventData(ENDPOINT, APP)), ENDPOINT, LINKS));
    expect(payload.type).toBe('ping');
    expect(payload.data).toEqual({
      pitchMarkdown: null, status: null, links: { page: `${APP}/webhooks/${ENDPOINT}` }, endpointId: ENDPOINT, message: expect.any(String),
    });
  });
});

describe('the status sentence', () => {
  it('is one sentence for a skipped brief, whatever the writer\'s reason ends with', () => {
    const skipped = (verdictReason: string | null) => production({
      stage: 'skipped', pitch: { ...production().pitch!, verdict: 'skip', verdictReason },
    });
    expect(statusSentence('production.skipped', skipped('Only whitespace changed, nothing a viewer would notice.')))
      .toBe('No video, and nothing was charged: Only whitespace changed, nothing a viewer would notice.');
    expect(statusSentence('production.skipped', skipped(null))).toBe('No video, and nothing was charged: the brief was judged not worth a video.');
  });
});
