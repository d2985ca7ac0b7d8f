import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import {
  DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, paginateListObjectsV2, PutObjectCommand, S3Client, S3ServiceException, type S3ClientConfig,
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
  /** How long a request or its answer may stand still before it fails (a minute by default). */
  stalledAfterMs?: number;
};

/** How long connecting may take, and how long a request or its answer may stand still (see `stalledAfterMs`). */
const CONNECT_TIMEOUT_MS = 10_000;
const STALLED_AFTER_MS = 60_000;

/** Blobs in a bucket of any S3-compatible store. */
export function s3BlobStore(settings: S3Settings): BlobStore {
  return new S3BlobStore(settings);
}

/** An S3 client as every store needs it; `requestHandler` sets its timeouts and pool. */
function s3Client(settings: S3Settings, requestHandler: S3ClientConfig['requestHandler']) {
  return new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.accessKeyId && settings.secretAccessKey
      ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
      : undefined,
    // Checksums only where S3 requires them: many compatible stores refuse the newer trailing ones.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler,
  });
}

const isNotFound = (error: unknown) =>
  error instanceof S3ServiceException && (error.$metadata.httpStatusCode === 404 || error.name === 'NoSuchKey' || error.name === 'NotFound');

class S3BlobStore implements BlobStore {
  /**
   * Uploads, lookups, deletes and whole reads: a store that stops answering fails them, rather
   * than holding a render's try or a page's request until the platform's own limits.
   */
  private readonly client: S3Client;
  /**
   * Streamed reads are played by viewers: each holds its connection for as long as they watch, or
   * pause, so these have a pool of their own with no limit (the SDK's is 50 connections, queued
   * behind without a time limit) and no idle limit.
   */
  private readonly streams: S3Client;
  private readonly bucket: string;

  constructor(settings: S3Settings) {
    this.client = s3Client(settings, { connectionTimeout: CONNECT_TIMEOUT_MS, socketTimeout: settings.stalledAfterMs ?? STALLED_AFTER_MS });
    this.streams = s3Client(settings, {
      connectionTimeout: CONNECT_TIMEOUT_MS, httpAgent: { maxSockets: Infinity }, httpsAgent: { maxSockets: Infinity },
    });
    this.bucket = settings.bucket;
  }

  private async object(key: string, range?: string, via = this.client) {
    assertKey(key);
    try {
      const { Body } = await via.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: range }));
      if (!Body) throw new BlobNotFoundError(key);
      return Body;
    } catch (error) {
      if (isNotFound(error)) throw new BlobNotFoundError(key);
      throw error;
    }
  }

  async put(key: string, body: Parameters<BlobStore['put']>[1], options: Parameters<BlobStore['put']>[2] = {}) {
    assertKey(key);
    const command = { Bucket: this.bucket, Key: key, ContentType: options.contentType ?? contentTypeOf(key) };
    if (Buffer.isBuffer(body)) {
      await this.client.send(new PutObjectCommand({ ...command, Body: body, ContentLength: body.length }), { abortSignal: options.signal });
      return;
    }
    const ContentLength = (await stat(body.file)).size;
    const file = createReadStream(body.file);
    try {
      await this.client.send(new PutObjectCommand({ ...command, Body: file, ContentLength }), { abortSignal: options.signal });
    } finally {
      // The SDK leaves a stream it did not finish reading open: a failed or given-up put would keep the file.
      file.destroy();
    }
  }

  async get(key: string) {
    return Buffer.from(await (await this.object(key)).transformToByteArray());
  }

  async stat(key: string) {
    assertKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return {
        size: head.ContentLength ?? 0,
        contentType: head.ContentType ?? contentTypeOf(key),
        etag: head.ETag ?? `"${head.ContentLength ?? 0}"`,
        lastModified: head.LastModified ?? new Date(0),
      };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async read(key: string, range?: { start: number; end: number }) {
    const body = await this.object(key, range ? `bytes=${range.start}-${range.end}` : undefined, this.streams);
    return body.transformToWebStream() as ReadableStream<Uint8Array>;
  }

  async delete(key: string) {
    assertKey(key);
    // S3 answers a delete of a key it does not have as it answers any other: 204.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async list(prefix: string) {
    assertPrefix(prefix);
    const keys: string[] = [];
    for await (const page of paginateListObjectsV2({ client: this.client }, { Bucket: this.bucket, Prefix: prefix })) {
      for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
    }
    return keys;
  }
}
