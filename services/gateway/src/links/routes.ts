import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { Env } from 'hono';
import { ErrorBody, GreenlightLinkView, LinkCommentBody, LinkDeclineBody, StorableText, UNAVAILABLE_RETRY_AFTER_SECONDS } from '@vp/contracts';
import { answerLink, readLink, type LinkDeps } from '@vp/productions';

const json = <T extends z.ZodType>(schema: T, description: string) => ({ description, content: { 'application/json': { schema } } });
const error = (description: string) => json(ErrorBody, description);
const LinkResponse = json(z.object({ link: GreenlightLinkView }), 'The link and the production it is for');
const ERRORS = {
  403: error('The link was sent to someone who can no longer greenlight in the workspace, or to a deleted webhook endpoint (`revoked`); or an API key was sent, which links do not take (`api_key_scope`).'),
  404: error('Not a link this service sent, or the production no longer exists (`not_found`).'),
  429: error('More than 30 requests a minute from this address (`rate_limited`); see Retry-After.'),
  503: error('Greenlight links are switched off on this server (`disabled`).'),
} as const;
const ACTING = {
  409: error('The pitch moved on or was already answered (`stale`); no comment rounds left (`revisions`).'),
  410: error('The link has expired (`expired`); links live 7 days.'),
  503: {
    ...error(`Greenlight links are switched off on this server (\`disabled\`); or, without a code, Temporal could not be reached or did not answer in time: the action may or may not have been taken. Read the link, then try again if needed after \`Retry-After\` seconds (${UNAVAILABLE_RETRY_AFTER_SECONDS}).`),
    headers: z.object({ 'Retry-After': z.string().optional().meta({ description: 'Seconds to wait, when the production could not be changed.' }) }),
  },
} as const;

const Token = z.object({ token: StorableText.min(1).meta({ param: { name: 'token', in: 'path' }, description: 'The signed token from the link.' }) });
const tags = ['Greenlight links'];
const PUBLIC = { security: [] };

const routes = {
  read: createRoute({
    method: 'get', path: '/{token}', tags, ...PUBLIC, summary: 'Read a greenlight link (also once expired: `state: expired`)',
    request: { params: Token },
    responses: { 200: LinkResponse, ...ERRORS },
  }),
  greenlight: createRoute({
    method: 'post', path: '/{token}/greenlight', tags, ...PUBLIC, summary: 'Greenlight the pitch the link was sent for: credits are charged once',
    request: { params: Token },
    responses: { 200: LinkResponse, 402: error('Not enough credits (`credits`); the pitch stands.'), ...ERRORS, ...ACTING },
  }),
  comments: createRoute({
    method: 'post', path: '/{token}/comments', tags, ...PUBLIC, summary: 'Comment on the pitch; the next version is written',
    request: { params: Token, body: { required: true, content: { 'application/json': { schema: LinkCommentBody } } } },
    responses: {
      200: LinkResponse, 400: error('The comment is missing or longer than 4000 characters.'),
      402: error('Not enough credits for the video (`credits`); the current pitch stands.'),
      ...ERRORS, ...ACTING,
      429: error('More than 30 requests a minute from this address (`rate_limited`), or the monthly pitch cap is reached (`cap`).'),
    },
  }),
  decline: createRoute({
    method: 'post', path: '/{token}/decline', tags, ...PUBLIC, summary: 'Decline the pitch',
    request: { params: Token, body: { required: false, content: { 'application/json': { schema: LinkDeclineBody } } } },
    responses: { 200: LinkResponse, 400: error('The reason is longer than 1000 characters.'), ...ERRORS, ...ACTING },
  }),
};

/** /production-links: public, authenticated by the signed token; 30 requests a minute per address. */
export function linkRoutes<E extends Env>(deps: LinkDeps) {
  const app = new OpenAPIHono<E>();
  app.openapi(routes.read, async (c) => c.json(await readLink(deps, c.req.valid('param').token), 200));
  app.openapi(routes.greenlight, async (c) => c.json(await answerLink(deps, c.req.valid('param').token, { kind: 'greenlight' }), 200));
  app.openapi(routes.comments, async (c) =>
    c.json(await answerLink(deps, c.req.valid('param').token, { kind: 'comment', comment: c.req.valid('json').comment }), 200));
  app.openapi(routes.decline, async (c) => {
    const body = ((c.req.valid as (target: 'json') => unknown)('json') ?? {}) as { reason?: string };
    return c.json(await answerLink(deps, c.req.valid('param').token, { kind: 'decline', reason: body.reason }), 200);
  });
  return app;
}
