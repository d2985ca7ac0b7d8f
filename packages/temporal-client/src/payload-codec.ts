import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Payload, PayloadCodec } from '@temporalio/common';
import proto from '@temporalio/proto';

const ENCODING = 'binary/encrypted';
const KEY_ID = 'encryption-key-id';
const IV_BYTES = 12;
const TAG_BYTES = 16;

// A CommonJS package: Node's ESM import sees only its default export.
const { Payload: PayloadMessage } = proto.temporal.api.common.v1;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Encrypts every payload with AES-256-GCM before it leaves the process (workflow inputs and
 * results, Update arguments, activity inputs, heartbeats, failures' words), so that Temporal's
 * history holds nothing readable. Each payload names the key that sealed it by a fingerprint:
 * after a rotation the previous key still opens what it sealed, and only the current one seals.
 * A payload that is not encrypted (histories written before the codec) passes as it is.
 */
export class AesGcmPayloadCodec implements PayloadCodec {
  readonly #current: { id: string; key: Buffer };
  readonly #byId: Map<string, Buffer>;

  constructor(key: Buffer, previous: Buffer[] = []) {
    for (const each of [key, ...previous]) if (each.length !== 32) throw new Error('A payload key is 32 bytes.');
    this.#current = { id: fingerprint(key), key };
    this.#byId = new Map([key, ...previous].map((each) => [fingerprint(each), each]));
  }

  async encode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', this.#current.key, iv);
      const sealed = Buffer.concat([cipher.update(PayloadMessage.encode(payload).finish()), cipher.final()]);
      return {
        metadata: { encoding: encoder.encode(ENCODING), [KEY_ID]: encoder.encode(this.#current.id) },
        data: Buffer.concat([iv, sealed, cipher.getAuthTag()]),
      };
    });
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => {
      if (!payload.metadata || decoder.decode(payload.metadata.encoding ?? new Uint8Array()) !== ENCODING) return payload;
      const id = decoder.decode(payload.metadata[KEY_ID] ?? new Uint8Array());
      const key = this.#byId.get(id);
      if (!key) throw new Error(`No payload key ${id || '(unnamed)'} is configured to open this payload (TEMPORAL_PAYLOAD_KEY, TEMPORAL_PAYLOAD_KEY_PREVIOUS).`);
      const data = Buffer.from(payload.data ?? new Uint8Array());
      const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, IV_BYTES));
      decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
      const opened = Buffer.concat([decipher.update(data.subarray(IV_BYTES, data.length - TAG_BYTES)), decipher.final()]);
      return PayloadMessage.decode(opened);
    });
  }
}

/** A key's name in payloads: the first 8 bytes of its SHA-256, never the key. */
function fingerprint(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}
