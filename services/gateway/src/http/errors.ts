import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ZodError } from 'zod';
import { ApiError, DomainError, type ErrorBody } from '@vp/contracts';
import { unavailableWhenDatabaseFails } from '@vp/db';
import type { GatewayEnv } from '../deps.ts';
import { toApiError } from './domain-errors.ts';

/** Every non-2xx body: `{ error, code?, issues? }`. */
export function errorResponse(c: Context, status: ContentfulStatusCode, body: ErrorBody, headers: Record<string, string> = {}) {
  return c.json(body, status, headers);
}

/** zod issues as the API shows them: a dotted path and a message each. */
export function validationIssues(error: ZodError): ErrorBody['issues'] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
}

/** The default hook of every OpenAPI route: a failed validation is a 400 listing each problem. */
export function validationHook(result: { success: boolean; error?: unknown; target?: string }, c: Context) {
  if (result.success) return undefined;
  const issues = validationIssues(result.error as ZodError);
  const where = result.target === 'json' ? 'body' : result.target;
  return errorResponse(c, 400, { error: `Invalid request ${where}: ${issues?.[0]?.path || '(root)'}: ${issues?.[0]?.message}`, issues });
}

/**
 * Known failures keep their status and code; a database that cannot serve now is a 503 to try again;
 * anything else is a 500 without its stack, logged with the request id.
 */
export const onError: ErrorHandler<GatewayEnv> = (thrown, c) => {
  const refusal = unavailableWhenDatabaseFails(thrown);
  if (refusal !== thrown) c.var.log.warn({ err: thrown }, 'the database could not serve the request');
  const error = refusal instanceof DomainError ? toApiError(refusal) : refusal;
  if (error instanceof ApiError) {
    const { message, code, issues } = error;
    return errorResponse(c, error.status, { error: message, ...(code ? { code } : {}), ...(issues ? { issues } : {}) }, error.headers);
  }
  if (error instanceof HTTPException) {
    const status = error.status as ContentfulStatusCode;
    // A 400 carries no code, as the spec's table says; the statuses it does not list have ours.
    const code = status === 413 ? 'payload_too_large' : status === 415 ? 'unsupported_media_type' : status >= 500 ? 'internal' : undefined;
    // A body that does not parse is a validation failure too: its one issue is the whole body's.
    if (status === 400 && /JSON/i.test(error.message)) {
      return errorResponse(c, 400, { error: 'The body is not valid JSON.', issues: [{ path: '', message: 'Not valid JSON.' }] });
    }
    return errorResponse(c, status, { error: error.message || 'Invalid request.', ...(code ? { code } : {}) });
  }
  c.var.log.error({ err: error }, 'unhandled error');
  return errorResponse(c, 500, { error: `Something went wrong on our side. Request id: ${c.var.requestId}.`, code: 'internal' });
};

export const notFound: NotFoundHandler<GatewayEnv> = (c) =>
  errorResponse(c, 404, { error: `No route ${c.req.method} ${c.req.path}.`, code: 'not_found' });
