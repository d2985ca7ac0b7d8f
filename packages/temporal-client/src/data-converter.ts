import type { DataConverter } from '@temporalio/common';
import { AesGcmPayloadCodec } from './payload-codec.ts';

/** The failure converter's file, which Temporal loads by path in workers, clients and the workflow bundle. */
export const failureConverterPath = new URL('./failure-converter.cjs', import.meta.url).pathname;

/** The payload keys, as the configuration holds them (TEMPORAL_PAYLOAD_KEY, TEMPORAL_PAYLOAD_KEY_PREVIOUS). */
export type PayloadKeys = { payloadKey: Buffer; previousPayloadKey: Buffer | null };

/**
 * The data converter of every client and worker of the service: payloads encrypted
 * (AesGcmPayloadCodec), failures' messages and stacks with them.
 */
export function temporalDataConverter(keys: PayloadKeys): DataConverter {
  return {
    payloadCodecs: [new AesGcmPayloadCodec(keys.payloadKey, keys.previousPayloadKey ? [keys.previousPayloadKey] : [])],
    failureConverterPath,
  };
}
