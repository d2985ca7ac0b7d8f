import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import {
  DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, paginateListObjectsV2, PutObjectCommand, S3Client, S3ServiceException,
} from '@aws-sdk/client-s3';
import { assertKey, assertPrefix, BlobNotFoundError, contentTypeOf, type BlobStore } from './store.ts';

export type S3Settings = {
  /** Unset for AWS itself; e.g. `http://minio:9000` for a self-hosted store. */
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
};

/** Blobs in a bucket of any S3-compatible store. */
export function s3BlobStore(settings: S3Settings): BlobStore {
  const client = new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.accessKeyId && settings.secretAccessKey
      ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
      : undefined,
    // Checksums only where S3 requires them: many compatible stores refuse the newer trailing ones.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = settings.bucket;
  const notFound = (error: unknown) =>
    error instanceof S3ServiceException && (error.$metadata.httpStatusCode === 404 || error.name === 'NoSuchKey' || error.name === 'NotFound');

  async function object(key: string, range?: string) {
    assertKey(key);
    try {
      const { Body } = await client.send(new GetObjectCommand({ Bucket, Key: key, Range: range }));
      if (!Body) throw new BlobNotFoundError(key);
      return Body;
    } catch (error) {
      if (notFound(error)) throw new BlobNotFoundError(key);
      throw error;
    }
  }

  return {
    async put(key, body, options = {}) {
      assertKey(key);
      const ContentType = options.contentType ?? contentTypeOf(key);
      const sent = Buffer.isBuffer(body)
        ? { Body: body, ContentLength: body.length }
        : { Body: createReadStream(body.file), ContentLength: (await stat(body.file)).size };
      await client.send(new PutObjectCommand({ Bucket, Key: key, ContentType, ...sent }), { abortSignal: options.signal });
    },

    async get(key) {
      return Buffer.from(await (await object(key)).transformToByteArray());
    },

    async stat(key) {
      assertKey(key);
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return {
          size: head.ContentLength ?? 0,
          contentType: head.ContentType ?? contentTypeOf(key),
          etag: head.ETag ?? `"${head.ContentLength ?? 0}"`,
          lastModified: head.LastModified ?? new Date(0),
        };
      } catch (error) {
        if (notFound(error)) return null;
        throw error;
      }
    },

    async read(key, range) {
      const body = await object(key, range ? `bytes=${range.start}-${range.end}` : undefined);
      return body.transformToWebStream() as ReadableStream<Uint8Array>;
    },

    async delete(key) {
      assertKey(key);
      // S3 answers a delete of a key it does not have as it answers any other: 204.
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },

    async list(prefix) {
      assertPrefix(prefix);
      const keys: string[] = [];
      for await (const page of paginateListObjectsV2({ client }, { Bucket, Prefix: prefix })) {
        for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
      }
      return keys;
    },
  };
}
