/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { DomainError, type DomainErrorCode } from '@vp/contracts';
import { unavailableWhenDatabaseFails } from '@vp/db';
import type { AppDeps, AppEnv } from '../env.ts';
import { Page } from '../views/layout.tsx';

/**
 * Every domain refusal as the app answers it: the one table from the domain's codes to a page's
 * status and heading. A form that can show its refusal beside its fields does so itself; any
 * other refusal is this page.
 */
const PAGES: Record<DomainErrorCode, { status: ContentfulStatusCode; title: string }> = {
  invalid: { status: 400, title: 'That did not work' },
  not_api_key: { status: 400, title: 'That did not work' },
  forbidden: { status: 403, title: 'Not allowed' },
  revoked: { status: 403, title: 'Not allowed' },
  credits: { status: 402, title: 'Not enough credits' },
  not_found: { status: 404, title: 'Not found' },
  stage: { status: 409, title: 'Not now' },
  stale: { status: 409, title: 'Something changed' },
  revisions: { status: 409, title: 'No revisions left' },
  limit: { status: 409, title: 'Limit reached' },
  endpoint_disabled: { status: 409, title: 'Endpoint switched off' },
  wrong_server: { status: 409, title: 'Not on this server' },
  expired: { status: 410, title: 'Link expired' },
  cap: { status: 429, title: 'Monthly limit reached' },
  rate_limited: { status: 429, title: 'Slow down' },
  disabled: { status: 503, title: 'Switched off' },
  unavailable: { status: 503, title: 'Try again shortly' },
};

export function statusOf(error: DomainError): ContentfulStatusCode {
  return PAGES[error.code].status;
}

/** The page for a refusal, a missing page or a failure: one page, the reason in words. */
export function refusalPage(c: Context<AppEnv>, status: ContentfulStatusCode, title: string, message: string) {
  c.header('Cache-Control', 'no-store');
  return c.html(
    <Page title={title} nonce={c.var.secureHeadersNonce ?? ''}>
      <h1>{title}</h1>
      <p>{message}</p>
      <p><a href={c.var.session ? '/' : '/sign-in'}>{c.var.session ? 'Back to your productions' : 'Sign in'}</a></p>
    </Page>,
    status,
  );
}

export function errorHandler(deps: AppDeps): ErrorHandler<AppEnv> {
  return (thrown, c) => {
    const error = unavailableWhenDatabaseFails(thrown);
    if (error !== thrown) deps.log.warn({ err: thrown, method: c.req.method, path: c.req.path }, 'the database could not serve the request');
    if (error instanceof DomainError) {
      const page = PAGES[error.code];
      if (error.retryAfterSeconds !== undefined) c.header('Retry-After', String(error.retryAfterSeconds));
      return refusalPage(c, page.status, page.title, error.message);
    }
    if (error instanceof HTTPException && error.status < 500) return refusalPage(c, error.status as ContentfulStatusCode, 'That did not work', error.message || 'The request could not be read.');
    deps.log.error({ err: error, method: c.req.method, path: c.req.path }, 'request failed');
    return refusalPage(c, 500, 'Something went wrong', 'The page could not be made. Try again in a moment.');
  };
}

export const notFound: NotFoundHandler<AppEnv> = (c) => refusalPage(c, 404, 'Not found', 'There is no page at this address.');
