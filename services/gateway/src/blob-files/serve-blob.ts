import type { Context } from 'hono';
import { ApiError } from '@vp/contracts';
import type { BlobStore } from '@vp/blobs';
import { parseRange } from './range.ts';

/**
 * Answers with a stored file: byte ranges (206, 416), validators (ETag, Last-Modified, 304),
 * and the caller's caching policy. Blobs never change once written, so the ETag is strong.
 */
export async function serveBlob(c: Context, blobs: BlobStore, key: string, options: { cacheControl: string; notFound: string }): Promise<Response> {
  const info = await blobs.stat(key);
  if (!info) throw new ApiError(404, options.notFound, 'not_found');
  const headers: Record<string, string> = {
    'Accept-Ranges': 'bytes',
    'Content-Type': info.contentType,
    ETag: info.etag,
    'Last-Modified': info.lastModified.toUTCString(),
    'Cache-Control': options.cacheControl,
  };
  if (notModified(c, info)) return c.body(null, 304, headers);
  const asked = c.req.header('range');
  // If-Range: a range of the file the caller already has, else the whole (new) file.
  const ifRange = c.req.header('if-range');
  const range = asked && (!ifRange || sameFile(ifRange, info)) ? parseRange(asked, info.size) : null;
  if (range === 'unsatisfiable') {
    throw new ApiError(416, `The range ${asked} is outside the file (${info.size} bytes).`, 'range_not_satisfiable', { 'Content-Range': `bytes */${info.size}`, 'Accept-Ranges': 'bytes' });
  }
  const status = range ? 206 : 200;
  if (range) headers['Content-Range'] = `bytes ${range.start}-${range.end}/${info.size}`;
  headers['Content-Length'] = String(range ? range.end - range.start + 1 : info.size);
  // HEAD runs this GET handler and drops the body: the file is not even opened.
  if (c.req.method === 'HEAD') return c.body(null, status, headers);
  return c.body(await blobs.read(key, range ?? undefined), status, headers);
}

type Validators = { etag: string; lastModified: Date };

/** HTTP dates have whole seconds. */
const seconds = (date: Date) => Math.floor(date.getTime() / 1000) * 1000;

/**
 * RFC 9110 §13.2.2: If-None-Match first, compared weakly (a `W/` tag matches its strong twin);
 * without it, If-Modified-Since.
 */
function notModified(c: Context, info: Validators): boolean {
  const noneMatch = c.req.header('if-none-match');
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  if (noneMatch) return noneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(info.etag));
  const since = Date.parse(c.req.header('if-modified-since') ?? '');
  return Number.isFinite(since) && seconds(info.lastModified) <= since;
}

/** If-Range holds the caller's copy's strong ETag or its Last-Modified date (RFC 9110 §13.1.5). */
function sameFile(ifRange: string, info: Validators): boolean {
  if (/^(W\/)?"/.test(ifRange)) return ifRange === info.etag;
  return Date.parse(ifRange) === seconds(info.lastModified);
}
