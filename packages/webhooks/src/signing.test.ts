import { describe, expect, it } from 'vitest';
import { verifyWebhook } from '@vp/webhook-verify';
import { generateSecret } from './secret.ts';
import { signedHeaders } from './signing.ts';

describe('delivery headers', () => {
  const body = JSON.stringify({ id: 'e1', type: 'ping', data: { message: 'héllo' } });
  const now = new Date('2026-11-23T10:00:00Z');

  it('sign <t>.<raw body> so that @vp/webhook-verify accepts it, with the event id and type', () => {
    const secret = generateSecret();
    const headers = signedHeaders({ secrets: [secret], eventId: 'e1', type: 'ping', body, now });
    expect(headers['Service-Signature']).toMatch(/^t=1795428000,v1=[0-9a-f]{64}$/);
    expect(headers['Service-Event-Id']).toBe('e1');
    expect(headers['Service-Event-Type']).toBe('ping');
    expect(headers['content-type']).toBe('application/json');
    expect(verifyWebhook({ payload: Buffer.from(body), header: headers['Service-Signature'], secret, now })).toEqual({ ok: true, timestamp: 1795428000 });
    expect(verifyWebhook({ payload: body.replace('héllo', 'hello'), header: headers['Service-Signature'], secret, now }).ok).toBe(false);
  });

  it('carry two v1 entries during a roll overlap: a receiver with either secret accepts', () => {
    const [current, previous] = [generateSecret(), generateSecret()];
    const header = signedHeaders({ secrets: [current, previous], eventId: 'e1', type: 'ping', body, now })['Service-Signature']!;
    expect(header.match(/v1=/g)).toHaveLength(2);
    expect(verifyWebhook({ payload: body, header, secret: current, now }).ok).toBe(true);
    expect(verifyWebhook({ payload: body, header, secret: previous, now }).ok).toBe(true);
    expect(verifyWebhook({ payload: body, header, secret: generateSecret(), now }).ok).toBe(false);
  });
});
