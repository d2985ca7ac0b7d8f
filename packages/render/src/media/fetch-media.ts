import { ConnectionError, FetchError, FetchTimeoutError, fetchPublic, formatBytes, HostNotFoundError, type Resolver } from '@vp/net';
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
 * a worker may pass its own (a cache, a blob store) with the same limits. A `FetchError` it
 * throws is judged by its kind (see `download`); any other error is taken as one that may pass.
 */
export type FetchMedia = (url: string, limits: { maxBytes: number; timeoutMs: number; signal?: AbortSignal }) => Promise<FetchedMedia>;

/** Redirects followed at most (a GitHub attachment's address redirects once, to its file). */
export const MAX_REDIRECTS = 5;
/** Some CDNs refuse a request that does not say who makes it. */
const USER_AGENT = 'VideoProductionService/1 (media fetcher)';

/**
 * Fetches over http(s) from public addresses only; `allowPrivate` is for development and tests.
 * Redirects are followed, up to MAX_REDIRECTS, each one checked as the first address was (its
 * own DNS answer, public addresses only, connected to the address checked), all within the one
 * time limit. After that, the last redirect is the answer.
 */
export function publicMediaFetcher(options: { allowPrivate?: boolean; resolve?: Resolver } = {}): FetchMedia {
  return async (url, limits) => {
    const deadline = Date.now() + limits.timeoutMs;
    let address = url;
    for (let redirects = 0; ; redirects++) {
      const response = await fetchPublic(address, {
        ...limits, timeoutMs: Math.max(1, deadline - Date.now()), allowPrivate: options.allowPrivate, resolve: options.resolve,
        headers: { accept: 'image/*, video/*', 'user-agent': USER_AGENT },
      }).catch((error: unknown) => {
        // Said of the medium's whole time, not of what the redirects before this hop left of it.
        throw error instanceof FetchTimeoutError && redirects ? new FetchTimeoutError(url, limits.timeoutMs) : error;
      });
      const next = redirectTarget(response.status, response.headers.get('location'), address);
      if (!next || redirects === MAX_REDIRECTS) return { status: response.status, contentType: response.headers.get('content-type'), body: response.body };
      address = next;
    }
  };
}

/** Where a redirect leads, if it leads anywhere over http(s). */
function redirectTarget(status: number, location: string | null, from: string): string | null {
  if (status < 300 || status >= 400 || status === 304 || !location) return null;
  try {
    const target = new URL(location, from);
    return target.protocol === 'https:' || target.protocol === 'http:' ? target.href : null;
  } catch {
    return null;
  }
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

/**
 * What each role takes: the server's type need only name the right kind of file (servers say
 * `video/x-m4v` for an MP4, `image/jpg` or `image/pjpeg` for a JPEG); the bytes decide the format.
 */
const ACCEPTED: Record<MediaRole, { declared: (mime: string) => boolean; sniffed: SniffedType[]; words: string }> = {
  image: { declared: (mime) => mime.startsWith('image/'), sniffed: ['png', 'jpeg', 'webp', 'gif', 'avif'], words: 'a PNG, JPEG, WebP, GIF or AVIF image' },
  video: { declared: (mime) => mime.startsWith('video/'), sniffed: ['mp4', 'webm', 'quicktime'], words: 'an MP4, WebM or QuickTime video' },
  logo: {
    // An SVG is XML, and many servers say no more than that.
    declared: (mime) => mime.startsWith('image/') || mime === 'text/xml' || mime === 'application/xml',
    sniffed: ['png', 'jpeg', 'webp', 'gif', 'avif', 'svg'], words: 'a PNG, JPEG, WebP, GIF, AVIF or SVG image',
  },
};

/** Servers that do not know better send these; the bytes decide then. */
const UNSPECIFIC = new Set(['application/octet-stream', 'binary/octet-stream', 'application/binary']);

export interface MediaSubject {
  id: string;
  url: string;
  /** "The image 'Dashboard' (https://…)", "The logo (https://…)"; an upload by its name only. */
  label: string;
}

export function describe(role: MediaRole, id: string, url: string, name?: string): MediaSubject {
  const label = role === 'logo' ? 'The logo' : `The ${role} '${name ?? id}'`;
  // An upload's `blob:<key>` is the store's internal address: people see the image's name only.
  return { id, url, label: url.startsWith('blob:') ? label : `${label} (${shownAddress(url)})` };
}

/**
 * An address as a failure shows it, in the production's error and its webhooks: without its
 * query and fragment, where a signed address keeps its token.
 */
function shownAddress(url: string): string {
  try {
    const { origin, pathname } = new URL(url);
    return `${origin}${pathname}`;
  } catch {
    return url;
  }
}

/** A medium's failure in words a person can read; diagnostics stay in `details`, for the logs. */
export function mediaFailure(
  subject: MediaSubject, reason: string, options: { details?: string | null; cause?: unknown; transient?: boolean } = {},
): MediaError {
  return new MediaError(`${subject.label} ${reason}`, subject.id, subject.url, options.details ?? null, { cause: options.cause, transient: options.transient });
}

/** Failures of a fetch that may pass on another try: the host or the way to it, not the address or the file. */
const PASSING_FETCH_ERRORS = [FetchTimeoutError, ConnectionError, HostNotFoundError];
/** Answers that may differ on another try: a server that is busy, down, or asks to slow down. */
const passingStatus = (status: number) => status === 429 || status >= 500;

/**
 * Downloads a medium and checks its answer, size and type; every failure is a readable `MediaError`.
 * A timeout, a lost connection, a 5xx or a 429 is `transient` (the render farm tries again);
 * a refused address, another 4xx, a file too large or of the wrong type is final.
 */
export async function download(
  subject: MediaSubject, role: MediaRole, fetchMedia: FetchMedia, limit: MediaLimit, signal?: AbortSignal,
): Promise<{ body: Buffer; type: SniffedType }> {
  const fail = (reason: string, options: Parameters<typeof mediaFailure>[2] = {}): never => {
    throw mediaFailure(subject, reason, options);
  };
  let fetched: FetchedMedia;
  try {
    fetched = await fetchMedia(subject.url, { ...limit, signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    if (error instanceof FetchError) {
      return fail(`could not be downloaded: ${error.message}`, { cause: error, transient: PASSING_FETCH_ERRORS.some((kind) => error instanceof kind) });
    }
    return fail('could not be downloaded', { details: String(error), cause: error, transient: true });
  }
  if (fetched.status >= 300 && fetched.status < 400) {
    return fail(`could not be downloaded: the server answered ${fetched.status}, a redirect that was not followed (more than ${MAX_REDIRECTS} in a row, or to no web address)`);
  }
  if (fetched.status < 200 || fetched.status >= 300) return fail(`could not be downloaded: the server answered ${fetched.status}`, { transient: passingStatus(fetched.status) });
  if (fetched.body.length > limit.maxBytes) return fail(`is larger than ${formatBytes(limit.maxBytes)}`);
  if (!fetched.body.length) return fail('is empty');
  const accepted = ACCEPTED[role];
  const mime = fetched.contentType?.split(';')[0]?.trim().toLowerCase() ?? null;
  if (mime && !UNSPECIFIC.has(mime) && !accepted.declared(mime)) {
    return fail(`is not ${accepted.words}: the server says it is ${mime}`);
  }
  const type = sniff(fetched.body);
  if (!type || !accepted.sniffed.includes(type)) return fail(`is not ${accepted.words}${type ? ` (it is ${type.toUpperCase()})` : ''}`);
  return { body: fetched.body, type };
}
