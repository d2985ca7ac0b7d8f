import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import {
  ConnectionError, FetchError, FetchTimeoutError, ResponseTooLargeError, UnsupportedUrlError,
} from './errors.ts';
import { bareHost, checkPublicHost, type Resolver } from './resolve.ts';

export interface FetchPublicOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** For the whole exchange: resolving, connecting, sending and reading the body. */
  timeoutMs: number;
  maxBytes: number;
  /** `error` (default) fails with `ResponseTooLargeError`; `truncate` keeps the first `maxBytes`. */
  onTooLarge?: 'error' | 'truncate';
  /** Development switch: accept private and loopback addresses. */
  allowPrivate?: boolean;
  signal?: AbortSignal;
  /** Defaults to the system resolver; injectable for tests. */
  resolve?: Resolver;
  /** Certificate authorities to trust for https instead of the system's (tests trust a self-signed receiver). */
  ca?: string | Buffer | Array<string | Buffer>;
  /**
   * An answer whose body breaks off (the time runs out, the connection drops, it is shorter than
   * its Content-Length) is returned with what arrived and `incomplete`, not failed: for callers to
   * whom the status is the answer (a webhook receiver's 2xx acknowledges however its body ends).
   */
  keepPartialBody?: boolean;
}

export interface PublicResponse {
  url: string;
  status: number;
  headers: Headers;
  body: Buffer;
  /** True when the body was cut at `maxBytes`. */
  truncated: boolean;
  /** True when the body broke off before its end (only with `keepPartialBody`). */
  incomplete: boolean;
  /** The address the request was sent to: the one that was checked. */
  address: string;
}

/**
 * Fetches a URL only when every address of its host is public, then connects to exactly
 * the addresses it checked (a DNS answer that changes between check and connect cannot
 * reach inside), in DNS order: one that cannot be reached at all is passed over for the next,
 * as browsers do when, say, IPv6 has no route. Redirects are never followed: a 3xx is returned as is.
 */
export async function fetchPublic(input: string | URL, options: FetchPublicOptions): Promise<PublicResponse> {
  const url = parseUrl(input);
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const fail = (error: unknown): never => {
    if (options.signal?.aborted) throw options.signal.reason;
    if (timeout.aborted) throw new FetchTimeoutError(url.href, options.timeoutMs);
    throw error;
  };
  try {
    signal.throwIfAborted();
    const addresses = await abortable(
      checkPublicHost(url.hostname, { resolve: options.resolve, allowPrivate: options.allowPrivate, url: url.href }),
      signal,
    );
    return await sendToFirstReachable(url, addresses, options, signal);
  } catch (error) {
    return fail(error);
  }
}

/** Failures of the connection itself, before a byte was sent: trying the next address repeats nothing. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

async function sendToFirstReachable(url: URL, addresses: string[], options: FetchPublicOptions, signal: AbortSignal): Promise<PublicResponse> {
  for (const [i, address] of addresses.entries()) {
    try {
      return await send(url, address, options, signal);
    } catch (error) {
      const another = i < addresses.length - 1 && error instanceof ConnectionError && UNREACHABLE.has(error.code ?? '');
      if (!another) throw error;
    }
  }
  throw new ConnectionError(url.href, null, null); // a checked host has at least one address
}

function parseUrl(input: string | URL): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new UnsupportedUrlError('this is not a valid URL', String(input));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UnsupportedUrlError(`only http and https addresses are fetched, not ${url.protocol.slice(0, -1)}`, url.href);
  }
  return url;
}

/** A `lookup` that always answers the checked address, whatever DNS says now. */
function pinnedLookup(address: string): LookupFunction {
  const family = isIP(address);
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

function send(url: URL, address: string, options: FetchPublicOptions, signal: AbortSignal): Promise<PublicResponse> {
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = transport.request(url, {
      method: options.method ?? 'GET',
      headers: options.headers,
      // A fresh agent per request: a pooled socket could lead to an address checked for another request.
      agent: false,
      ...(options.ca ? { ca: options.ca } : {}),
      // An IP literal connects directly; a host name goes through the pinned lookup and keeps its
      // name for the Host header, SNI and certificate checks.
      lookup: isIP(bareHost(url.hostname)) ? undefined : pinnedLookup(address),
    });
    const abort = () => request.destroy(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    const settle = <T>(fn: (value: T) => void) => (value: T) => {
      signal.removeEventListener('abort', abort);
      fn(value);
    };
    const done = settle(resolve);
    const failed = settle((error: unknown) => reject(error instanceof FetchError || signal.aborted
      ? error
      : new ConnectionError(url.href, address, (error as NodeJS.ErrnoException).code ?? null, { cause: error })));

    let answered = false;
    // Once the answer has come, a failure breaks off its body: the body's reading settles it.
    request.on('error', (error) => (answered && options.keepPartialBody ? undefined : failed(error)));
    request.on('response', (response) => {
      answered = true;
      readBody(response, url.href, options).then(({ body, truncated, incomplete }) => {
        done({ url: url.href, status: response.statusCode ?? 0, headers: toHeaders(response.rawHeaders), body, truncated, incomplete, address });
      }, failed);
    });
    request.end(options.body);
  });
}

type Body = { body: Buffer; truncated: boolean; incomplete: boolean };

async function readBody(response: http.IncomingMessage, url: string, options: FetchPublicOptions): Promise<Body> {
  const { maxBytes } = options;
  const truncate = options.onTooLarge === 'truncate';
  const declared = Number(response.headers['content-length']);
  if (!truncate && Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    throw new ResponseTooLargeError(url, maxBytes);
  }
  // A declared length is read straight into a buffer of that size: a body is never held twice.
  // (An answer to HEAD, a 1xx, 204 or 304 has no body, whatever its Content-Length says.)
  const status = response.statusCode ?? 0;
  const bodiless = options.method === 'HEAD' || status < 200 || status === 204 || status === 304;
  if (!bodiless && Number.isInteger(declared) && declared > 0 && declared <= maxBytes) return readDeclared(response, url, declared, options);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response as AsyncIterable<Buffer>) {
      if (size + chunk.length > maxBytes) {
        response.destroy();
        if (!truncate) throw new ResponseTooLargeError(url, maxBytes);
        chunks.push(chunk.subarray(0, maxBytes - size));
        return { body: Buffer.concat(chunks), truncated: true, incomplete: false };
      }
      chunks.push(chunk);
      size += chunk.length;
    }
  } catch (error) {
    if (!options.keepPartialBody || error instanceof ResponseTooLargeError) throw error;
    return { body: Buffer.concat(chunks), truncated: false, incomplete: true };
  }
  return { body: Buffer.concat(chunks), truncated: false, incomplete: false };
}

/** A body of `length` bytes, as its Content-Length says; one that says otherwise is a failed connection. */
async function readDeclared(response: http.IncomingMessage, url: string, length: number, options: FetchPublicOptions): Promise<Body> {
  const body = Buffer.allocUnsafe(length);
  let size = 0;
  try {
    for await (const chunk of response as AsyncIterable<Buffer>) {
      // Node ends a response that overruns its length with an error; never write past the buffer.
      if (size + chunk.length > length) break;
      chunk.copy(body, size);
      size += chunk.length;
    }
  } catch (error) {
    if (!options.keepPartialBody) throw error;
  }
  if (size === length) return { body, truncated: false, incomplete: false };
  response.destroy();
  if (options.keepPartialBody) return { body: body.subarray(0, size), truncated: false, incomplete: true };
  throw new ConnectionError(url, null, 'ERR_INCOMPLETE_BODY');
}

function toHeaders(raw: string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string);
  return headers;
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}
