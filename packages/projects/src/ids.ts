import { createHash } from 'node:crypto';

/** This service's namespace for name-based UUIDs. */
const NAMESPACE = Buffer.from('3f1c2b8e9d6a4c0f8b7e5a1d2c3b4a59', 'hex');

/** A name-based UUID (RFC 9562 version 5): the same name always gives the same id. */
export function nameUuid(name: string): string {
  const bytes = createHash('sha1').update(NAMESPACE).update(name).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The export a production is delivered with: every try of its render writes the same one. */
export const deliveryExportId = (productionId: string) => nameUuid(`delivery-export:${productionId}`);
