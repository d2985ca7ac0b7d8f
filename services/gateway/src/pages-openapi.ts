import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Env } from 'hono';
import { ErrorBody, LINK_ACTIONS, StorableText } from '@vp/contracts';

const tags = ['Pages'];
const PUBLIC = { security: [] };
const page = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });
const file = (type: string, description: string) => ({ description, content: { [type]: { schema: z.string().meta({ type: 'string', format: 'binary' }) } } });
const seeOther = (description: string) => ({ description, headers: z.object({ Location: z.string() }) });
/** The share page answers a browser with a page and a program with the error shape. */
const pageOrError = (description: string) => ({
  description, content: { 'text/html': { schema: z.string() }, 'application/json': { schema: ErrorBody } },
});
const form = <T extends z.ZodType>(schema: T) => ({ required: true, content: { 'application/x-www-form-urlencoded': { schema } } });

const Token = z.object({ token: StorableText.min(1).meta({ param: { name: 'token', in: 'path' }, description: 'The signed token of a greenlight link.' }) });
const ProjectId = z.object({ projectId: StorableText.meta({ param: { name: 'projectId', in: 'path' } }) });
const ExportId = z.object({ exportId: z.uuid().meta({ param: { name: 'exportId', in: 'path' } }) });
const REFUSED = { 403: page('Sent from a page of another site: nothing was done.'), 429: page('More than 30 requests a minute from this address.') };

const PAGES = [
  createRoute({
    method: 'get', path: '/go/{token}', tags, ...PUBLIC, summary: 'A greenlight link\'s page: the pitch, and forms to greenlight, comment or decline',
    request: { params: Token, query: z.object({ action: z.enum(LINK_ACTIONS).optional(), done: z.enum(LINK_ACTIONS).optional() }) },
    responses: { 200: page('The page'), 404: page('Not a link this service sent.'), 403: page('The link was revoked.'), 429: REFUSED[429] },
  }),
  createRoute({
    method: 'get', path: '/go/{token}/{action}', tags, ...PUBLIC, summary: 'Where a link page\'s form was refused, opened again: back to the page',
    request: { params: Token.extend({ action: StorableText.meta({ param: { name: 'action', in: 'path' } }) }) },
    responses: { 303: seeOther('The page, the form named focused.'), 404: page('Not a link this service sent.'), 429: REFUSED[429] },
  }),
  createRoute({
    method: 'post', path: '/go/{token}/{action}', tags, ...PUBLIC, summary: 'A link page\'s form: acts as /production-links does, then back to the page',
    request: {
      params: Token.extend({ action: z.enum(LINK_ACTIONS).meta({ param: { name: 'action', in: 'path' } }) }),
      body: form(z.object({ comment: StorableText.max(4000).optional(), reason: StorableText.max(1000).optional() })),
    },
    responses: { 303: seeOther('Done: the page says so.'), 400: page('The form is not valid; the page shows why.'), 402: page('Not enough credits.'), 404: page('Not a link this service sent.'), 409: page('The pitch was answered or replaced.'), 410: page('The link has expired.'), ...REFUSED },
  }),
  createRoute({
    method: 'get', path: '/share/{exportId}', tags, ...PUBLIC, summary: 'A delivered video\'s share page',
    request: { params: ExportId }, responses: { 200: page('The player'), 404: pageOrError('No video at this address.') },
  }),
  ...(['video.mp4', 'poster.jpg'] as const).map((name) => createRoute({
    method: 'get', path: `/share/{exportId}/${name}`, tags, ...PUBLIC, summary: `A delivered video's ${name === 'video.mp4' ? 'MP4' : 'poster frame'}, with byte ranges`,
    request: { params: ExportId },
    responses: { 200: file(name === 'video.mp4' ? 'video/mp4' : 'image/jpeg', 'The file'), 206: file('video/mp4', 'The range asked for'), 404: { description: 'No such file', content: { 'application/json': { schema: ErrorBody } } } },
  })),
  ...(['/projects/{projectId}', '/projects/{projectId}/edit'] as const).map((path) => createRoute({
    method: 'get', path, tags, ...PUBLIC, summary: 'Moved into the app, behind sign-in: to the same path at `{app_url}`',
    request: { params: ProjectId }, responses: { 301: seeOther('The same path and query at the app\'s address.') },
  })),
];

/**
 * The login-free pages the gateway serves, in the OpenAPI document beside the API: their
 * addresses, parameters and forms, so that a program (the fuzzer, a route table's checks)
 * reaches them as it reaches the API. Documented only: their routes are the pages' own.
 */
export function documentPages<E extends Env>(app: OpenAPIHono<E>) {
  for (const route of PAGES) app.openAPIRegistry.registerPath(route);
}
