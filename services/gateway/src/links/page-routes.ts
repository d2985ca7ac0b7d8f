import { Hono, type Context, type MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ApiError, DomainError, LinkCommentBody, LinkDeclineBody, type ErrorBody } from '@vp/contracts';
import type { ZodError } from 'zod';
import type { GatewayEnv } from '../deps.ts';
import { toApiError } from '../http/domain-errors.ts';
import { validationIssues } from '../http/errors.ts';
import { readForm } from '../http/form.ts';
import { linkPage, PAGE_ACTIONS, refusedPage, unusableLinkPage, type PageAction } from './page.ts';
import { answerLink, readLink, type LinkAnswer, type LinkDeps } from '@vp/productions';

/** A link token as @vp/links mints them: base64url claims, a dot, a base64url signature; 1024 characters at most. */
const TOKEN_SHAPE = /^(?=.{3,1024}$)[\w-]+\.[\w-]+$/;
const NOT_A_LINK = 'This link is not one we sent.';

const pageAction = (value: string | undefined): PageAction | null => PAGE_ACTIONS.find((action) => action === value) ?? null;

/**
 * /go/{token}: the page a greenlight link opens (`{app_url}/go/<token>?action=…`). Its forms
 * post back here and act through the same service as /production-links. After an action the
 * browser is sent back to the page (303), so a reload never acts twice.
 */
export function linkPageRoutes(deps: LinkDeps) {
  const app = new Hono<GatewayEnv>();
  // Paths on this server, whatever APP_URL says: the page may be served here beside an app of one's own.
  // The token as it was sent, encoded again: decoded, one holding CR, LF or NUL (no link's does)
  // would be refused as a Location header's value, failing the answer.
  const pageUrl = (token: string) => `/go/${encodeURIComponent(token)}`;
  const formUrl = (token: string) => (action: PageAction) => `${pageUrl(token)}/${action}`;

  /** The page, with `problem` when an action was refused; a link that cannot be read gets a page saying why. */
  async function show(c: Context, token: string, view: Omit<Parameters<typeof linkPage>[0], 'link' | 'formUrl'>, status: ContentfulStatusCode = 200) {
    c.header('Cache-Control', 'no-store');
    try {
      const { link } = await readLink(deps, token);
      return c.html(linkPage({ link, formUrl: formUrl(token), ...view }), status);
    } catch (thrown) {
      const error = refusal(thrown);
      withHeadersOf(c, error);
      return c.html(unusableLinkPage(error.message), error.status as ContentfulStatusCode);
    }
  }

  app.get('/:token', (c) => show(c, c.req.param('token'), {
    action: pageAction(c.req.query('action')), done: pageAction(c.req.query('done')), problem: null,
  }));

  // Where a refused form was shown: opened again (from history, a restored tab), it is the page.
  // What cannot be a link's token at all has no page to lead back to.
  app.get('/:token/:action', (c) => {
    const token = c.req.param('token');
    if (!TOKEN_SHAPE.test(token)) return c.html(unusableLinkPage(NOT_A_LINK), 404);
    const action = pageAction(c.req.param('action'));
    return c.redirect(`${pageUrl(token)}${action ? `?action=${action}` : ''}`, 303);
  });

  app.post('/:token/:action', async (c) => {
    const token = c.req.param('token');
    const action = pageAction(c.req.param('action'));
    if (!action) return c.html(unusableLinkPage('There is no such action.'), 404);
    // A body its Content-Type does not describe (multipart without a boundary, or cut short), or
    // one of another type or not UTF-8, is no browser's form. Past the body limit, the refusal's page.
    const form = await readForm(c).catch((error: unknown) => {
      if (error instanceof ApiError && error.status !== 413) return error;
      throw error;
    });
    if (form instanceof ApiError) return show(c, token, { action, done: null, problem: 'The form could not be read; send it again from this page.' }, form.status as ContentfulStatusCode);
    // Browsers send a line break as CRLF but count it as one character for maxlength; the server counts
    // (and keeps) it as LF too.
    const field = (name: string) => (typeof form[name] === 'string' ? form[name].replace(/\r\n?/g, '\n').trim() : '');
    const comment = field('comment');
    const reason = field('reason');
    try {
      await answerLink(deps, token, toAction(action, comment, reason));
      return c.redirect(`${pageUrl(token)}?done=${action}`, 303);
    } catch (thrown) {
      const error = refusal(thrown);
      withHeadersOf(c, error);
      return show(c, token, { action, done: null, problem: error.message, comment, reason }, error.status as ContentfulStatusCode);
    }
  });

  return app;
}

/**
 * Every answer under /go is a page, for the person at the browser: a request refused before it
 * got to the routes (the rate limit, the body limit, a method not allowed), an address that is
 * none of theirs, or a failure of ours keeps its status and headers, and says in a page what the
 * API's error shape would have said.
 */
export const linkPageRefusals: MiddlewareHandler = async (c, next) => {
  await next();
  if (!c.res.headers.get('content-type')?.startsWith('application/json')) return;
  const { error } = (await c.res.json()) as ErrorBody;
  const headers = new Headers(c.res.headers);
  headers.set('content-type', 'text/html; charset=UTF-8');
  headers.set('cache-control', 'no-store');
  headers.delete('content-length');
  const status = c.res.status;
  c.res = undefined;
  c.res = new Response(status === 404 ? unusableLinkPage(NOT_A_LINK) : refusedPage(error), { status, headers });
};

/** A refusal, as the API would answer it (its status and headers); anything else is not one, and thrown on. */
function refusal(error: unknown): ApiError {
  if (error instanceof DomainError) return toApiError(error);
  if (error instanceof ApiError) return error;
  throw error;
}

/** A refusal's own headers (a 429's Retry-After) go out with the page that shows it. */
function withHeadersOf(c: Context, error: ApiError) {
  for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
}

/** The form's fields as the action the API takes, checked by the same schemas. */
function toAction(action: PageAction, comment: string, reason: string): LinkAnswer {
  if (action === 'greenlight') return { kind: 'greenlight' };
  if (action === 'comment') {
    refuseUnless(LinkCommentBody.safeParse({ comment }), 'Write a comment of 1 to 4000 characters.');
    return { kind: 'comment', comment };
  }
  refuseUnless(LinkDeclineBody.safeParse({ reason }), 'A reason can be at most 1000 characters.');
  return { kind: 'decline', ...(reason ? { reason } : {}) };
}

/** A field its schema refused: text that cannot be stored says why (a browser never sends it); any other refusal, `otherwise`. */
function refuseUnless(result: { success: boolean; error?: ZodError }, otherwise: string) {
  if (!result.error) return;
  const unstorable = result.error.issues.find((issue) => issue.code === 'custom');
  throw new ApiError(400, unstorable?.message ?? otherwise, undefined, {}, validationIssues(result.error));
}
