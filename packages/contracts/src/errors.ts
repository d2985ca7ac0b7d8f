import { z } from 'zod';

export const ERROR_CODES = [
  'not_api_key', 'credits', 'api_key_scope', 'api_key_missing_scope', 'forbidden', 'revoked', 'not_found',
  'stage', 'stale', 'revisions', 'endpoint_disabled', 'wrong_server', 'limit', 'expired', 'rate_limited', 'cap',
  'disabled', 'payload_too_large', 'unsupported_media_type',
  'method_not_allowed', 'internal', 'range_not_satisfiable',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const ValidationIssue = z
  .object({ path: z.string(), message: z.string() })
  .meta({ id: 'ValidationIssue' });
export type ValidationIssue = z.infer<typeof ValidationIssue>;

/** Every non-2xx body. */
export const ErrorBody = z
  .object({
    error: z.string(),
    code: z.string().optional(),
    issues: z.array(ValidationIssue).optional(),
  })
  .meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Seconds a caller waits before asking again when a request could not be handed on. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 10;

/** Thrown anywhere behind the gateway; rendered as `{ error, code, issues? }` with its status. */
export class ApiError extends Error {
  constructor(
    readonly status: 400 | 401 | 402 | 403 | 404 | 405 | 409 | 410 | 413 | 415 | 416 | 429 | 500 | 503,
    message: string,
    readonly code?: ErrorCode,
    readonly headers: Record<string, string> = {},
    readonly issues?: ValidationIssue[],
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /**
   * 503 while a service we depend on (Temporal) cannot be reached: no code, since the spec keeps
   * `disabled` for a surface switched off, and a Retry-After.
   */
  static unavailable(message: string): ApiError {
    return new ApiError(503, message, undefined, { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) });
  }

  /** A field refused by a check its schema cannot make (a url's addresses, a cursor): a 400 with `issues`, as the schemas' own. */
  static invalid(path: string, message: string): ApiError {
    return new ApiError(400, message, undefined, {}, [{ path, message }]);
  }
}
