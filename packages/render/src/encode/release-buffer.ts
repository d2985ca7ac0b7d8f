import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Transfer = (this: ArrayBuffer, newLength?: number) => ArrayBuffer;

/** Looked up at the first release: undefined until then, null when there is none. */
let transfer: Transfer | null | undefined;

/**
 * ES2024's `ArrayBuffer.prototype.transfer`, which detaches a buffer and hands its memory on (or,
 * to a length of 0, frees it). Node 22 has it. Node 20's V8 (11.3) has it too, staged behind a
 * flag that V8 reads as it makes a context: with the flag set, a new context has it, and it works
 * on any realm's buffers. Null where neither is there.
 */
function findTransfer(): Transfer | null {
  const own = (ArrayBuffer.prototype as { transfer?: Transfer }).transfer;
  if (own) return own;
  setFlagsFromString('--harmony-rab-gsab-transfer');
  const staged: unknown = runInNewContext('ArrayBuffer.prototype.transfer');
  return typeof staged === 'function' ? (staged as Transfer) : null;
}

/**
 * Frees the memory under `view` now, leaving `view` empty, rather than whenever V8 next collects
 * it. Meant for the fresh 8 MB buffer the canvas library returns for every whole frame read back:
 * freed one by one, each frame's buffer reuses the last one's memory, where otherwise dozens pile
 * up, are freed together by a full collection every few frames, are handed back to the kernel,
 * and fault in again as zeroed pages. A view that shares its buffer with others (a pooled
 * `Buffer`) is left alone. Returns whether the memory was freed.
 */
export function releaseNow(view: ArrayBufferView): boolean {
  const { buffer } = view;
  if (!(buffer instanceof ArrayBuffer) || view.byteOffset !== 0 || view.byteLength !== buffer.byteLength) return false;
  if (transfer === undefined) transfer = findTransfer();
  if (!transfer) return false;
  transfer.call(buffer, 0);
  return true;
}
