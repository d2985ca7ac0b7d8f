import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LINK_LIFETIME_MS } from '@vp/contracts';
import { linkActor, linkChannel, linkExpiry, linkState, linkUrl, mintActionLinks, mintLinkToken, readLinkToken, type LinkClaims } from './index.ts';

const SECRET = 'test-link-signing-secret-0123456789abcdef';
const claims: LinkClaims = {
  productionId: '3f1c6a52-8a8e-4a57-9a43-0b6a5b0f8e11',
  pitchVersion: 2,
  recipient: { kind: 'email', email: 'ada@example.com' },
  expiresAt: new Date('2026-12-01T10:00:00Z'),
};

describe('greenlight link tokens', () => {
  it('carry the production, pitch version, recipient and expiry they were minted for', () => {
    const token = mintLinkToken(SECRET, claims);
    expect(token).toMatch(/^[\w-]+\.[\w-]{43}$/);
    expect(readLinkToken(SECRET, token)).toEqual(claims);
    const hook = { ...claims, recipient: { kind: 'webhook' as const, endpointId: '0b9d3a43-3f0e-4a59-8d2c-6c9a7f1b2e33' } };
    expect(readLinkToken(SECRET, mintLinkToken(SECRET, hook))).toEqual(hook);
  });

  it('cannot be forged: a token signed with another secret is refused', () => {
    expect(readLinkToken(SECRET, mintLinkToken('another-secret-of-at-least-32-characters!', claims))).toBeNull();
  });

  it('signed with the previous secret still read while a rotation settles, and not once it is dropped', () => {
    const previous = 'the-secret-before-the-rotation-32-characters';
    const sent = mintLinkToken(previous, claims);
    expect(readLinkToken([SECRET, previous], sent)).toEqual(claims);
    expect(readLinkToken([SECRET, previous], mintLinkToken(SECRET, claims))).toEqual(claims);
    expect(readLinkToken([SECRET], sent)).toBeNull();
    expect(readLinkToken([SECRET, previous], mintLinkToken('another-secret-of-at-least-32-characters!', claims))).toBeNull();
  });

  it('cannot be altered: changing any character of the token, or swapping claims, is refused', () => {
    const token = mintLinkToken(SECRET, claims);
    fc.assert(fc.property(fc.nat(token.length - 1), fc.constantFrom(...'ABCDEFabcdef0123456789-_.=+/ "<'), (at, char) => {
      fc.pre(token[at] !== char);
      expect(readLinkToken(SECRET, token.slice(0, at) + char + token.slice(at + 1))).toBeNull();
    }));
    // Characters base64url decoding would skip, added anywhere, are refused too.
    fc.assert(fc.property(fc.nat(token.length), fc.constantFrom('=', '==', ' ', '\n', '"'), (at, junk) => {
      expect(readLinkToken(SECRET, token.slice(0, at) + junk + token.slice(at))).toBeNull();
    }));
    const [, mac] = token.split('.');
    const otherVersion = mintLinkToken(SECRET, { ...claims, pitchVersion: 3 }).split('.')[0];
    expect(readLinkToken(SECRET, `${otherVersion}.${mac}`)).toBeNull();
  });

  it('refuses malformed tokens without throwing', () => {
    for (const token of ['', '.', 'abc', 'a.b.c', `${Buffer.from('[1]').toString('base64url')}.x`, 'x'.repeat(5000)]) {
      expect(readLinkToken(SECRET, token)).toBeNull();
    }
  });

  it('live 7 days from minting', () => {
    const minted = new Date('2026-11-23T09:00:00.456Z');
    expect(linkExpiry(minted).getTime()).toBe(Date.parse('2026-11-23T09:00:00Z') + LINK_LIFETIME_MS);
  });
});

describe('link state', () => {
  const open = { stage: 'pitch_ready' as const, pitchVersion: 2 };
  const before = new Date('2026-11-30T00:00:00Z');

  it('is open while the pitch it was minted for awaits an answer', () => {
    expect(linkState(claims, open, before)).toBe('open');
  });

  it('is stale once the pitch moved on or was answered', () => {
    expect(linkState(claims, { stage: 'pitch_ready', pitchVersion: 3 }, before)).toBe('stale');
    expect(linkState(claims, { stage: 'writing_pitch', pitchVersion: 2 }, before)).toBe('stale');
    expect(linkState(claims, { stage: 'greenlit', pitchVersion: 2 }, before)).toBe('stale');
  });

  it('is expired from its expiry on, stale or not', () => {
    expect(linkState(claims, open, claims.expiresAt)).toBe('expired');
    expect(linkState(claims, { stage: 'declined', pitchVersion: 2 }, new Date('2027-01-01'))).toBe('expired');
  });
});

describe('link addresses and actors', () => {
  it('are {APP_URL}/go/<token>?action=…, one token for the three actions', () => {
    const links = mintActionLinks({ secret: SECRET, appUrl: 'https://app.example.com' }, {
      productionId: claims.productionId, pitchVersion: 2, recipient: claims.recipient, mintedAt: new Date('2026-11-23T09:00:00Z'),
    });
    const token = mintLinkToken(SECRET, { ...claims, expiresAt: new Date('2026-11-30T09:00:00Z') });
    expect(links).toEqual({
      greenlight: linkUrl('https://app.example.com', token, 'greenlight'),
      comment: `https://app.example.com/go/${token}?action=comment`,
      decline: `https://app.example.com/go/${token}?action=decline`,
    });
  });

  it('name the recipient in the timeline: email:<address> or webhook:<endpointId>', () => {
    expect(linkActor({ kind: 'email', email: 'ada@example.com' })).toEqual({ actor: 'email:ada@example.com', actorName: 'ada@example.com' });
    expect(linkActor({ kind: 'webhook', endpointId: 'e1' })).toEqual({ actor: 'webhook:e1', actorName: null });
    expect(linkChannel({ kind: 'webhook', endpointId: 'e1' })).toBe('webhook');
  });
});
