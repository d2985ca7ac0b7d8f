import type { WorkflowHandle } from '@temporalio/client';
import type { Payload } from '@temporalio/common';
import { AesGcmPayloadCodec } from '@vp/temporal-client';

/**
 * A workflow's whole history as an operator could read it: every event, with every payload
 * opened by the service's payload key, as text to search.
 */
export async function historyText(handle: WorkflowHandle, payloadKey: Buffer): Promise<string> {
  const history = await handle.fetchHistory();
  const codec = new AesGcmPayloadCodec(payloadKey, []);
  const payloads: Payload[] = [];
  collectPayloads(history, payloads);
  const opened = await codec.decode(payloads);
  const raw = JSON.stringify(history, (_key, value: unknown) => (value instanceof Uint8Array ? Buffer.from(value).toString('latin1') : value));
  return [raw, ...opened.map((p) => Buffer.from(p.data ?? new Uint8Array()).toString('utf8'))].join('\n');
}

function collectPayloads(value: unknown, into: Payload[]): void {
  if (!value || typeof value !== 'object') return;
  if (value instanceof Uint8Array) return;
  const candidate = value as { metadata?: unknown; data?: unknown };
  if (candidate.metadata && typeof candidate.metadata === 'object' && candidate.data instanceof Uint8Array) {
    into.push(candidate as Payload);
    return;
  }
  for (const child of Object.values(value)) collectPayloads(child, into);
}
