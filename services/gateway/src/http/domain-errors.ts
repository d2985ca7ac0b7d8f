import { ApiError, type DomainError, type DomainErrorCode, type ErrorCode } from '@vp/contracts';

/**
 * Every domain refusal as the API answers it: the one table that maps the domain's codes to HTTP
 * (the spec's Errors). Most keep their code; `code: null`: the spec's answer carries none (a 400,
 * and a 503 for a service we depend on being away, since `disabled` is kept for a surface switched off).
 */
const STATUS: Record<DomainErrorCode, { status: ApiError['status']; code?: null }> = {
  invalid: { status: 400, code: null },
  not_api_key: { status: 400 },
  forbidden: { status: 403 },
  revoked: { status: 403 },
  credits: { status: 402 },
  not_found: { status: 404 },
  stage: { status: 409 },
  stale: { status: 409 },
  revisions: { status: 409 },
  limit: { status: 409 },
  endpoint_disabled: { status: 409 },
  wrong_server: { status: 409 },
  expired: { status: 410 },
  cap: { status: 429 },
  rate_limited: { status: 429 },
  disabled: { status: 503 },
  unavailable: { status: 503, code: null },
};

export function toApiError(error: DomainError): ApiError {
  const { status, code } = STATUS[error.code];
  const retryAfter = error.retryAfterSeconds;
  const headers: Record<string, string> = retryAfter === undefined ? {} : { 'Retry-After': String(retryAfter) };
  const shown = code === null ? undefined : (error.code as ErrorCode);
  return new ApiError(status, error.message, shown, headers, error.details.issues);
}
