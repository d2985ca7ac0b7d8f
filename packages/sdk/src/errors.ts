import type { components } from './generated/api.ts';

export type ValidationIssue = components['schemas']['ValidationIssue'];

/** The codes the service documents; a newer service may send others, kept as they are. */
export type ApiErrorCode =
  | 'not_api_key' | 'credits' | 'api_key_scope' | 'api_key_missing_scope' | 'forbidden' | 'revoked' | 'not_found'
  | 'stage' | 'stale' | 'revisions' | 'limit' | 'endpoint_disabled' | 'wrong_server' | 'expired' | 'rate_limited'
  | 'cap' | 'disabled' | 'method_not_allowed' | 'payload_too_large' | 'unsupported_media_type' | 'internal'
  | (string & {});

/** A non-2xx answer of the service: its status, its `{ error, code?, issues? }` body and the request's id. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: ApiErrorCode | null;
  readonly issues: ValidationIssue[];
  /** `X-Request-Id`: quote it when asking the service's operators about a failure. */
  readonly requestId: string | null;
  /** Seconds the service asked to wait (`Retry-After`), when it did. */
  readonly retryAfterSeconds: number | null;

  constructor(init: { status: number; message: string; code?: string | null; issues?: ValidationIssue[]; requestId?: string | null; retryAfterSeconds?: number | null }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code ?? null;
    this.issues = init.issues ?? [];
    this.requestId = init.requestId ?? null;
    this.retryAfterSeconds = init.retryAfterSeconds ?? null;
  }

  /** The error read from a response; a body that is not the error shape (a proxy's page) still gives one. */
  static async from(response: Response): Promise<ApiError> {
    const text = await response.text().catch(() => '');
    let body: { error?: unknown; code?: unknown; issues?: unknown } = {};
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      // Not JSON: described by its status below.
    }
    const message = typeof body.error === 'string' ? body.error : `The service answered ${response.status} ${response.statusText}`.trim();
    return new ApiError({
      status: response.status,
      message,
      code: typeof body.code === 'string' ? body.code : null,
      issues: Array.isArray(body.issues) ? (body.issues as ValidationIssue[]) : [],
      requestId: response.headers.get('x-request-id'),
      retryAfterSeconds: retryAfterSeconds(response.headers.get('retry-after')),
    });
  }
}

/** `Retry-After` in seconds: a number of seconds or an HTTP date. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** A production ended in a stage other than the one waited for. */
export class ProductionEndedError extends Error {
  override readonly name = 'ProductionEndedError';
  constructor(readonly stage: string, readonly productionId: string, readonly reason: string | null) {
    super(`Production ${productionId} ended ${stage}${reason ? `: ${reason}` : ''}`);
  }
}

/** The device flow ended without a key: refused in the browser, expired, or claimed elsewhere. */
export class DeviceFlowError extends Error {
  override readonly name = 'DeviceFlowError';
  constructor(readonly status: 'denied' | 'expired' | 'claimed' | (string & {})) {
    super(status === 'denied' ? 'The request for a key was refused in the browser'
      : status === 'expired' ? 'The request for a key expired before it was approved (10 minutes)'
        : status === 'claimed' ? 'The key was already collected by another poll'
          : `The request for a key ended: ${status}`);
  }
}
