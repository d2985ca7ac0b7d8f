import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { assertWebhook, computeSignature, verifyWebhook, WebhookVerificationError } from './index.ts';

const secret = 'whsec_Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWo';
const otherSecret = 'whsec_b3RoZXJzZWNyZXRvdGhlcnNlY3JldG90aGVyc2VjcmV0';
const body = '{"id":"4f7d0c3e-7a55-4c1c-9a43-0f7c8d2d7a10","type":"ping","data":{"message":"héllo"}}';
const now = new Date('2030-01-01T12:00:00Z');
const t = Math.floor(now.getTime() / 1000);

// The spec's words: HMAC-SHA256, hex encoded, over `<t>.<raw body>`, keyed with the endpoint secret.
const sign = (key: string, timestamp: number, raw: string | Buffer) =>
  createHmac('sha256', key).update(`${timestamp}.`).update(raw).digest('hex');

describe('computeSignature', () => {
  it('matches an independent HMAC-SHA256 computed by the openssl CLI', () => {
    const out = execFileSync('openssl', ['dgst', '-sha256', '-hmac', secret, '-r'], { input: `${t}.${body}` });
    expect(computeSignature(secret, t, body)).toBe(out.toString().split(' ')[0]);
  });

  it('signs the raw bytes: a string and its UTF-8 bytes give the same signature', () => {
    expect(computeSignature(secret, t, Buffer.from(body))).toBe(computeSignature(secret, t, body));
  });
});

describe('verifyWebhook', () => {
  it('accepts a correctly signed delivery, given as a string or as raw bytes', () => {
    const header = `t=${t},v1=${sign(secret, t, body)}`;
    expect(verifyWebhook({ payload: body, header, secret, now })).toEqual({ ok: true, timestamp: t });
    expect(verifyWebhook({ payload: Buffer.from(body), header, secret, now }).ok).toBe(true);
  });

  it('accepts when any v1 matches (two entries after a secret roll)', () => {
    const header = `t=${t},v1=${sign(otherSecret, t, body)},v1=${sign(secret, t, body)}`;
    expect(verifyWebhook({ payload: body, header, secret, now }).ok).toBe(true);
    expect(verifyWebhook({ payload: body, header, secret: otherSecret, now }).ok).toBe(true);
  });

  it('accepts any of several receiver secrets', () => {
    const header = `t=${t},v1=${sign(secret, t, body)}`;
    expect(verifyWebhook({ payload: body, header, secret: [otherSecret, secret], now }).ok).toBe(true);
  });

  it('tolerates spaces and unknown schemes in the header', () => {
    const header = `t=${t}, v0=abc, v1=${sign(secret, t, body)}`;
    expect(verifyWebhook({ payload: body, header, secret, now }).ok).toBe(true);
  });

  it('rejects a tampered body', () => {
    const header = `t=${t},v1=${sign(secret, t, body)}`;
    const tampered = body.replace('ping', 'pong');
    expect(verifyWebhook({ payload: tampered, header, secret, now })).toEqual({ ok: false, reason: 'signature_mismatch' });
  });

  it('rejects a tampered timestamp, even within tolerance', () => {
    const header = `t=${t + 1},v1=${sign(secret, t, body)}`;
    expect(verifyWebhook({ payload: body, header, secret, now })).toEqual({ ok: false, reason: 'signature_mismatch' });
  });

  it('rejects a signature made with another secret', () => {
    const header = `t=${t},v1=${sign(otherSecret, t, body)}`;
    expect(verifyWebhook({ payload: body, header, secret, now })).toEqual({ ok: false, reason: 'signature_mismatch' });
  });

  it('keys with the whole secret string, prefix included', () => {
    const withoutPrefix = secret.slice('whsec_'.length);
    const header = `t=${t},v1=${sign(withoutPrefix, t, body)}`;
    expect(verifyWebhook({ payload: body, header, secret, now }).ok).toBe(false);
  });

  it('rejects timestamps more than 5 minutes away from the receiver clock, either way', () => {
    for (const [ts, ok] of [[t - 300, true], [t + 300, true], [t - 301, false], [t + 301, false]] as const) {
      const header = `t=${ts},v1=${sign(secret, ts, body)}`;
      const result = verifyWebhook({ payload: body, header, secret, now });
      expect(result.ok, `t offset ${ts - t}`).toBe(ok);
      if (!ok) expect(result).toEqual({ ok: false, reason: 'timestamp_out_of_tolerance' });
    }
  });

  it('takes a configurable tolerance', () => {
    const ts = t - 3600;
    const header = `t=${ts},v1=${sign(secret, ts, body)}`;
    expect(verifyWebhook({ payload: body, header, secret, now, toleranceSeconds: 3600 }).ok).toBe(true);
    expect(verifyWebhook({ payload: body, header, secret, now, toleranceSeconds: 3599 }).ok).toBe(false);
  });

  it('uses the current time when no clock is given', () => {
    const ts = Math.floor(Date.now() / 1000);
    expect(verifyWebhook({ payload: body, header: `t=${ts},v1=${sign(secret, ts, body)}`, secret }).ok).toBe(true);
    const old = ts - 600;
    expect(verifyWebhook({ payload: body, header: `t=${old},v1=${sign(secret, old, body)}`, secret }).ok).toBe(false);
  });

  it('explains a missing or malformed header', () => {
    const v1 = sign(secret, t, body);
    const cases: [string | undefined, string][] = [
      [undefined, 'missing_header'],
      ['', 'missing_header'],
      [`v1=${v1}`, 'malformed_header'],
      [`t=abc,v1=${v1}`, 'malformed_header'],
      [`t=${t},t=${t},v1=${v1}`, 'malformed_header'],
      [`t=${t};v1=${v1}`, 'malformed_header'],
      [`t=${t}`, 'no_signature'],
      [`t=${t},v1=`, 'no_signature'],
      [`t=${t},v1=${v1.slice(0, 63)}`, 'no_signature'],
      [`t=${t},v1=${v1.slice(0, 62)}zz`, 'no_signature'],
    ];
    for (const [header, reason] of cases) {
      expect(verifyWebhook({ payload: body, header, secret, now }), String(header)).toEqual({ ok: false, reason });
    }
  });
  it('refuses to run set up wrong: without a secret, with an empty one, or with a tolerance that is not a number', () => {
    const header = `t=${t},v1=${sign('', t, body)}`;
    for (const wrong of ['', 'whsec_', [], [secret, '']] as (string | string[])[]) {
      expect(() => verifyWebhook({ payload: body, header, secret: wrong, now }), JSON.stringify(wrong)).toThrow(TypeError);
    }
    // An environment variable left unset, read as a number.
    const old = `t=${t - 3600},v1=${sign(secret, t - 3600, body)}`;
    for (const toleranceSeconds of [Number(undefined), -1, Infinity]) {
      expect(() => verifyWebhook({ payload: body, header: old, secret, now, toleranceSeconds }), String(toleranceSeconds)).toThrow(TypeError);
    }
  });
});

describe('assertWebhook', () => {
  it('returns the timestamp on success and throws a typed error with the reason otherwise', () => {
    const header = `t=${t},v1=${sign(secret, t, body)}`;
    expect(assertWebhook({ payload: body, header, secret, now })).toEqual({ timestamp: t });
    const error = (() => {
      try {
        assertWebhook({ payload: body, header, secret: otherSecret, now });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect((error as WebhookVerificationError).reason).toBe('signature_mismatch');
  });
});
