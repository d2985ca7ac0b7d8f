import { localBlobStore } from './local.ts';
import { s3BlobStore, type S3Settings } from './s3.ts';
import type { BlobStore } from './store.ts';

export { assertKey, BlobNotFoundError, contentTypeOf, type BlobBody, type BlobInfo, type BlobStore, type ByteRange } from './store.ts';
export { localBlobStore } from './local.ts';
export { s3BlobStore, type S3Settings } from './s3.ts';

export type BlobStoreSettings = { kind: 'local'; dir: string } | ({ kind: 's3' } & S3Settings);

/** The store the configuration names (`config.blobs`). */
export function createBlobStore(settings: BlobStoreSettings): BlobStore {
  return settings.kind === 's3' ? s3BlobStore(settings) : localBlobStore(settings.dir);
}
