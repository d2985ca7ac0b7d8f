import { FetchError, fetchPublic, formatBytes, type Resolver } from '@vp/net';
import { MediaError } from '../errors.ts';
import { sniff, type SniffedType } from './sniff.ts';

export interface FetchedMedia {
  status: number;
  /** The Content-Type header, if any. */
  contentType: string | null;
  body: Buffer;
}

/**
 * How the renderer reads a medium's URL. The default fetches from public addresses only;
 * a worker may pass its own (a cache, a blob store) with the same limits.
 */
export type FetchMedia = (url: string, limits: { maxBytes: number; timeoutMs: number; signal?: AbortSignal }) => Promise<FetchedMedia>;

/** Fetches over http(s) from public addresses only; `allowPrivate` is for development and tests. */
export function publicMediaFetcher(options: { allowPrivate?: boolean; resolve?: Resolver } = {}): FetchMedia {
  return async (url, limits) => {
    const response = await fetchPublic(url, {
      ...limits, allowPrivate: options.allowPrivate, resolve: options.resolve, headers: { accept: 'image/*, video/*' },
    });
    return { status: response.status, contentType: response.headers.get('content-type'), body: response.body };
  };
}

export type MediaRole = 'image' | 'video' | 'logo';

export interface MediaLimit {
  maxBytes: number;
  timeoutMs: number;
}

export const DEFAULT_MEDIA_LIMITS: Record<MediaRole, MediaLimit> = {
  image: { maxBytes: 25 * 1024 * 1024, timeoutMs: 30_000 },
  video: { maxBytes: 250 * 1024 * 1024, timeoutMs: 120_000 },
  logo: { maxBytes: 5 * 1024 * 1024, timeoutMs: 15_000 },
};

const ACCEPTED: Record<MediaRole, { mime: string[]; sniffed: SniffedType[]; words: string }> = {
  image: {
    mime: ['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/avif'], sniffed: ['png', 'jpeg', 'webp', 'gif', 'avif'],
    words: 'a PNG, JPEG, WebP, GIF or AVIF image',
  },
  video: { mime: ['video/mp4', 'video/webm', 'video/quicktime'], sniffed: ['mp4', 'webm', 'quicktime'], words: 'an MP4, WebM or QuickTime video' },
  logo: {
    mime: ['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/avif', 'image/svg+xml'], sniffed: ['png', 'jpeg', 'webp', 'gif', 'avif', 'svg'],
    words: 'a PNG, JPEG, WebP, GIF, AVIF or SVG image',
  },
};

/** Servers that do not know better send these; the bytes decide then. */
const UNSPECIFIC = new Set(['application/octet-stream', 'binary/octet-stream', 'application/binary']);

export interface MediaSubject {
  id: string;
  url: string;
  /** "The image 'Dashboard'", "The logo". */
  label: string;
}

export function describe(role: MediaRole, id: string, url: string, name?: string): MediaSubject {
  const label = role === 'logo' ? 'The logo' : `The ${role} '${name ?? id}'`;
  return { id, url, label };
}

/** Downloads a medium and checks its answer, size and type; every failure is a readable `MediaError`. */
export async function download(
  subject: MediaSubject, role: MediaRole, fetchMedia: FetchMedia, limit: MediaLimit, signal?: AbortSignal,
): Promise<{ body: Buffer; type: SniffedType }> {
  const fail = (reason: string, details: string | null = null, cause?: unknown): never => {
    throw new MediaError(`${subject.label} (${subject.url}) ${reason}`, subject.id, subject.url, details, { cause });
  };
  let fetched: FetchedMedia;
  try {
    fetched = await fetchMedia(subject.url, { ...limit, signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    if (error instanceof FetchError) return fail(`could not be downloaded: ${error.message}`, null, error);
    return fail('could not be downloaded', String(error), error);
  }
  if (fetched.status >= 300 && fetched.status < 400) return fail(`could not be downloaded: the server answered ${fetched.status}, a redirect, which is not followed`);
  if (fetched.status < 200 || fetched.status >= 300) return fail(`could not be downloaded: the server answered ${fetched.status}`);
  if (fetched.body.length > limit.maxBytes) return fail(`is larger than ${formatBytes(limit.maxBytes)}`);
  if (!fetched.body.length) return fail('is empty');
  const accepted = ACCEPTED[role];
  const mime = fetched.contentType?.split(';')[0]?.trim().toLowerCase() ?? null;
  if (mime && !UNSPECIFIC.has(mime) && !accepted.mime.includes(mime)) {
    return fail(`is not ${accepted.words}: the server says it is ${mime}`);
  }
  const type = sniff(fetched.body);
  if (!type || !accepted.sniffed.includes(type)) return fail(`is not ${accepted.words}${type ? ` (it is ${type.toUpperCase()})` : ''}`);
  return { body: fetched.body, type };
}
