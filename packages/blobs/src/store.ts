/** What is known of a stored blob without reading it. */
export type BlobInfo = {
  size: number;
  contentType: string;
  /** A strong validator, quoted as HTTP sends it. */
  etag: string;
  lastModified: Date;
};

/** Inclusive byte offsets, as in an HTTP Range. */
export type ByteRange = { start: number; end: number };

/** A file on disk (streamed, never read whole) or bytes in memory. */
export type BlobBody = Buffer | { file: string };

/**
 * Files by key: videos, posters, uploaded images. Keys are paths of plain segments
 * (`exports/<id>/<take>/video.mp4`); a blob is written whole or not at all.
 */
export interface BlobStore {
  /** `signal` gives the write up (a store that stopped answering would otherwise hold it for good); nothing is stored then. */
  put(key: string, body: BlobBody, options?: { contentType?: string; signal?: AbortSignal }): Promise<void>;
  /** The whole blob; throws BlobNotFoundError. */
  get(key: string): Promise<Buffer>;
  /** Null when there is no such blob. */
  stat(key: string): Promise<BlobInfo | null>;
  /** The blob, or the bytes of `range`, as a stream; throws BlobNotFoundError. */
  read(key: string, range?: ByteRange): Promise<ReadableStream<Uint8Array>>;
  /** Removes the blob; one that is not there is no error. */
  delete(key: string): Promise<void>;
  /**
   * Every key under `prefix` (a folder: `exports/<id>/`), in no set order. The local store also
   * lists what a killed writer left half-written there, so that it can be deleted too.
   */
  list(prefix: string): Promise<string[]>;
}

export class BlobNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`No blob ${key}`);
    this.name = 'BlobNotFoundError';
  }
}

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Keys are relative paths of plain segments: no `..`, no leading slash, nothing a shell or a URL would read twice. */
export function assertKey(key: string): void {
  if (key.length > 512 || !key.split('/').every((segment) => SEGMENT.test(segment))) {
    throw new Error(`Invalid blob key: ${JSON.stringify(key)}`);
  }
}

/** A prefix is a folder of plain segments, ending in `/`. */
export function assertPrefix(prefix: string): void {
  if (!prefix.endsWith('/')) throw new Error(`Invalid blob prefix: ${JSON.stringify(prefix)}`);
  assertKey(prefix.slice(0, -1));
}

const TYPES: Record<string, string> = {
  mp4: 'video/mp4', jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp', json: 'application/json',
};

/** The content type a key's extension names (our keys always carry one). */
export function contentTypeOf(key: string): string {
  return TYPES[key.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';
}
