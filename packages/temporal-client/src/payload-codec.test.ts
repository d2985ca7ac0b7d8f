import { randomBytes } from 'node:crypto';
import { defaultPayloadConverter } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { AesGcmPayloadCodec } from './payload-codec.ts';

const payload = (value: unknown) => defaultPayloadConverter.toPayload(value);
const text = (bytes: Uint8Array | null | undefined) => Buffer.from(bytes ?? []).toString('latin1');

describe('the payload codec', () => {
  it('encrypts every payload: nothing of the value is left readable, and it opens to the same payload', async () => {
    const codec = new AesGcmPayloadCodec(randomBytes(32));
    const original = payload({ comment: 'Ada Lovelace <ada@example.test> wants it shorter', editUrl: 'https://app.example/projects/1' });
    const [sealed] = await codec.encode([original]);
    expect(text(sealed!.metadata!.encoding)).toBe('binary/encrypted');
    expect(text(sealed!.data)).not.toMatch(/ada@example|shorter|projects/);
    expect(JSON.stringify(sealed)).not.toMatch(/ada@example|json\/plain/);
    const [opened] = await codec.decode([sealed!]);
    expect(defaultPayloadConverter.fromPayload(opened!)).toEqual(defaultPayloadConverter.fromPayload(original));
    // A fresh nonce each time: the same value never seals alike.
    const [again] = await codec.encode([original]);
    expect(Buffer.from(again!.data!)).not.toEqual(Buffer.from(sealed!.data!));
  });

  it('opens what the previous key sealed while it is rotated, seals with the current one only', async () => {
    const [previous, current] = [randomBytes(32), randomBytes(32)];
    const [old] = await new AesGcmPayloadCodec(previous).encode([payload('before the rotation')]);
    const rotating = new AesGcmPayloadCodec(current, [previous]);
    expect(defaultPayloadConverter.fromPayload((await rotating.decode([old!]))[0]!)).toBe('before the rotation');
    const [fresh] = await rotating.encode([payload('after')]);
    expect(defaultPayloadConverter.fromPayload((await new AesGcmPayloadCodec(current).decode([fresh!]))[0]!)).toBe('after');
    // Without the key that sealed it, it stays shut, saying which key is missing.
    await expect(new AesGcmPayloadCodec(current).decode([old!])).rejects.toThrow(/No payload key [0-9a-f]{16} is configured/);
  });

  it('passes a payload that is not encrypted as it is (histories written before the codec)', async () => {
    const plain = payload({ productionId: 'p1' });
    expect(await new AesGcmPayloadCodec(randomBytes(32)).decode([plain])).toEqual([plain]);
  });

  it('refuses a sealed payload that was changed on the way', async () => {
    const codec = new AesGcmPayloadCodec(randomBytes(32));
    const [sealed] = await codec.encode([payload('keep me whole')]);
    const data = Buffer.from(sealed!.data!);
    data[20]! ^= 1;
    await expect(codec.decode([{ ...sealed!, data }])).rejects.toThrow();
  });
});
