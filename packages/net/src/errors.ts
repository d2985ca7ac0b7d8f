import { formatBytes } from './format.ts';

/** Base of every failure of `fetchPublic`; messages are safe to show a person. */
export class FetchError extends Error {
  constructor(message: string, readonly url: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Not a URL, or a scheme other than http and https. */
export class UnsupportedUrlError extends FetchError {}

/**
 * The host is, or resolves to, an address that is not public. The message names the address a
 * name resolved to only by its kind: whoever chose the url would otherwise learn how this
 * server's network names its hosts (`address` keeps it, for the logs).
 */
export class UnsafeAddressError extends FetchError {
  constructor(url: string, readonly hostname: string, readonly address: string, readonly reason: string) {
    super(`${hostname === address ? `${address} is` : `${hostname} resolves to`} ${reason}, which is not a public address`, url);
  }
}

/** The host name does not resolve. */
export class HostNotFoundError extends FetchError {
  constructor(url: string, readonly hostname: string, options?: { cause?: unknown }) {
    super(`the host ${hostname} could not be found`, url, options);
  }
}

/** The connection failed: refused, reset, unreachable or a TLS failure. `code` is Node's error code. */
export class ConnectionError extends FetchError {
  constructor(url: string, readonly address: string | null, readonly code: string | null, options?: { cause?: unknown }) {
    super(`the server could not be reached${code ? ` (${code})` : ''}`, url, options);
  }
}

/** The whole exchange (resolving, connecting, sending, reading) took longer than allowed. */
export class FetchTimeoutError extends FetchError {
  constructor(url: string, readonly timeoutMs: number) {
    super(`no complete answer within ${formatSeconds(timeoutMs)}`, url);
  }
}

/** The body is larger than allowed (only when `onTooLarge` is `error`). */
export class ResponseTooLargeError extends FetchError {
  constructor(url: string, readonly maxBytes: number) {
    super(`the answer is larger than ${formatBytes(maxBytes)}`, url);
  }
}

function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}
