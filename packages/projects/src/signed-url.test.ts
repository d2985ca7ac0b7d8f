import { describe, expect, it } from 'vitest';
import { checkRenderVideoSignature, signedRenderVideoUrl } from './signed-url.ts';

const secret = 'a-url-signing-secret-of-at-least-32-chars';
const id = '6f1d8a52-3c5e-4a8e-9c41-0b2f7d1e6a30';
const query = (url: string) => Object.fromEntries(new URL(url).searchParams) as { expires: string; signature: string };

describe('signed render video addresses', () => {
  const now = new Date('2026-11-23T12:00:00Z');
  const url = signedRenderVideoUrl({ baseUrl: 'https://api.example.com', secret, now }, id);

  it('work for 24 hours', () => {
    expect(url).toMatch(new RegExp(`^https://api.example.com/renders/${id}/video.mp4\\?expires=\\d+&signature=[\\w-]{43}$`));
    expect(checkRenderVideoSignature(secret, id, query(url), now)).toMatchObject({ ok: true, expiresAt: new Date('2026-11-24T12:00:00Z') });
    expect(checkRenderVideoSignature(secret, id, query(url), new Date('2026-11-24T11:59:59Z')).ok).toBe(true);
    expect(checkRenderVideoSignature(secret, id, query(url), new Date('2026-11-24T12:00:00Z'))).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuse anything changed: the signature, the expiry, the render, the secret', () => {
    const q = query(url);
    const flipped = q.signature.slice(0, -1) + (q.signature.endsWith('A') ? 'B' : 'A');
    expect(checkRenderVideoSignature(secret, id, { ...q, signature: flipped }, now)).toEqual({ ok: false, reason: 'invalid' });
    expect(checkRenderVideoSignature(secret, id, { ...q, expires: String(Number(q.expires) + 3600) }, now)).toEqual({ ok: false, reason: 'invalid' });
    expect(checkRenderVideoSignature(secret, id.replace('6f', '7f'), q, now)).toEqual({ ok: false, reason: 'invalid' });
    expect(checkRenderVideoSignature(`${secret}!`, id, q, now)).toEqual({ ok: false, reason: 'invalid' });
    expect(checkRenderVideoSignature(secret, id, {}, now)).toEqual({ ok: false, reason: 'invalid' });
    expect(checkRenderVideoSignature(secret, id, { expires: '1e9', signature: q.signature }, now)).toEqual({ ok: false, reason: 'invalid' });
  });
});
