/** Inclusive byte offsets to send. */
export type ByteRange = { start: number; end: number };

/**
 * Reads a Range header against a size (RFC 9110 §14). A single `bytes` range is served; a
 * range past the end is unsatisfiable (416); anything else — another unit, several ranges,
 * bad syntax — is ignored, and the whole representation is sent, as the RFC allows.
 */
export function parseRange(header: string, size: number): ByteRange | 'unsatisfiable' | null {
  const match = /^bytes=(\d*)-(\d*)$/i.exec(header.replace(/\s+/g, ''));
  if (!match) return null;
  const [, first = '', last = ''] = match;
  if (!first && !last) return null;
  if (!first) {
    // A suffix: the last n bytes.
    const length = Number(last);
    if (length === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  if (last && Number(last) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: last ? Math.min(Number(last), size - 1) : size - 1 };
}
