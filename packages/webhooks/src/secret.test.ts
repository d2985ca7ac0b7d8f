import { describe, expect, it } from 'vitest';
import { createSecretBox, generateSecret } from './secret.ts';

const SERVER_KEY = 'test-webhook-secret-key-0123456789abcdefgh';
const ENDPOINT = '6a3e2b1c-0d4f-4e5a-8b7c-9d0e1f2a3b4c';

describe('endpoint secrets', () => {
  it('are whsec_ and 32 random bytes', () => {
    const secret = generateSecret();
    expect(secret).toMatch(/^whsec_[\w-]{43}$/);
    expect(Buffer.from(secret.slice(6), 'base64url')).toHaveLength(32);
    expect(generateSecret()).not.toBe(secret);
  });

  it('are stored encrypted: the sealed form reveals nothing and opens only with the server key', () => {
    const secret = generateSecret();
    const box = createSecretBox(SERVER_KEY);
    const sealed = box.seal(secret, ENDPOINT);
    expect(sealed).not.toContain(secret.slice(6));
    expect(box.open(sealed, ENDPOINT)).toBe(secret);
    expect(box.seal(secret, ENDPOINT)).not.toBe(sealed); // a fresh nonce each time
    // A database dump alone cannot sign: without the server key the secret does not open.
    expect(() => createSecretBox('another-server-key-0123456789abcdefghij').open(sealed, ENDPOINT)).toThrow();
  });

  it('open only for the endpoint they were sealed for, and not once altered', () => {
    const box = createSecretBox(SERVER_KEY);
    const sealed = box.seal(generateSecret(), ENDPOINT);
    expect(() => box.open(sealed, '00000000-0000-4000-8000-000000000000')).toThrow();
    const [v, iv, data, tag] = sealed.split('.');
    const flipped = Buffer.from(data!, 'base64url');
    flipped[0]! ^= 1;
    expect(() => box.open([v, iv, flipped.toString('base64url'), tag].join('.'), ENDPOINT)).toThrow();
  });

  it('open with the previous server key while a rotation settles; only the current one seals', () => {
    const secret = generateSecret();
    const before = createSecretBox(SERVER_KEY);
    const sealedBefore = before.seal(secret, ENDPOINT);
    const rotating = createSecretBox('the-new-server-key-0123456789abcdefghijk', [SERVER_KEY]);
    expect(rotating.open(sealedBefore, ENDPOINT)).toBe(secret);
    expect(rotating.sealedWithCurrentKey(sealedBefore, ENDPOINT)).toBe(false);
    const sealedNow = rotating.seal(secret, ENDPOINT);
    expect(rotating.sealedWithCurrentKey(sealedNow, ENDPOINT)).toBe(true);
    expect(() => before.open(sealedNow, ENDPOINT)).toThrow();
  });
});
