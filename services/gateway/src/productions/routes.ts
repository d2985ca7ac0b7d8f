import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context, Env } from 'hono';
import {
  CancelBody, CommentBody, CreateProductionBody, DeclineBody, ErrorBody, GreenlightBody, Limit, Production,
  ProductionEvent, QueueStatus, StageFilter, StorableText, UNAVAILABLE_RETRY_AFTER_SECONDS, Usage,
} from '@vp/contracts';
import type { Caller } from '@vp/contracts';
import {
  cancel, comment, createProduction, decline, greenlight, monthlyUsage, productionDetail, productionsOf, type ProductionDeps,
} from '@vp/productions';

export type ProductionRouteDeps<E extends Env> = ProductionDeps & {
  /** The authenticated caller of a request (set by the auth middleware). */
  caller: (c: Context<E>) => Caller;
};

const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});
const error = (description: string) => json(ErrorBody, description);
const ERRORS = {
  400: error('Invalid request; `issues` lists each problem.'),
  401: error('Missing, invalid or revoked API key.'),
  403: error('Missing scope (`api_key_missing_scope`) or view-only access (`forbidden`).'),
  404: error('Not found, or not visible to this key (`not_found`).'),
  429: error('Rate limited (`rate_limited`) or monthly pitch cap reached (`cap`); see Retry-After.'),
} as const;

/** An update whose outcome is not known: Temporal could not be reached, or did not answer in time. */
const Unconfirmed = {
  503: {
    ...error(`Temporal could not be reached, or did not answer in time: the change may or may not have been made. Read the production, then try again if needed after \`Retry-After\` seconds (${UNAVAILABLE_RETRY_AFTER_SECONDS}).`),
    headers: z.object({ 'Retry-After': z.string().meta({ description: 'Seconds to wait.' }) }),
  },
} as const;

const Id = z.object({ id: z.uuid().meta({ param: { name: 'id', in: 'path' } }) });
const WorkspaceQuery = z.object({ workspaceId: z.uuid().optional() });
const ProductionResponse = z.object({ production: Production });
const optionalBody = <T extends z.ZodType>(schema: T) => ({
  required: false,
  content: { 'application/json': { schema } },
});

const routes = {
  list: createRoute({
    method: 'get', path: '/', tags: ['Productions'], summary: 'List productions, newest first',
    description: 'Code files in listed briefs have `source` and `patch` emptied and `sourceOmitted: true`. With `externalId`, the production an earlier create with that id made.',
    request: {
      query: WorkspaceQuery.extend({
        stage: StageFilter.optional().meta({ description: 'A stage or a comma-separated list of stages (exact match).' }),
        limit: Limit,
        cursor: StorableText.max(200).optional(),
        externalId: StorableText.max(200).optional(),
      }),
    },
    responses: {
      200: json(z.object({ productions: z.array(Production), nextCursor: z.string().optional() }), 'Productions'),
      ...ERRORS,
    },
  }),
  create: createRoute({
    method: 'post', path: '/', tags: ['Productions'], summary: 'Push a brief; a free pitch is written in the background',
    request: { body: { required: true, content: { 'application/json': { schema: CreateProductionBody } } } },
    responses: {
      201: json(ProductionResponse, 'Created'),
      200: json(ProductionResponse, 'Idempotent replay of an earlier create with the same externalId (header `Idempotent-Replayed: true`)'),
      402: error('The workspace owner\'s credits do not cover a video of this length (`credits`); nothing was created.'),
      503: {
        ...error('Pitches cannot be written right now (`disabled`); nothing was created. With `Retry-After` when the cause is passing (Temporal cannot be reached).'),
        headers: z.object({ 'Retry-After': z.string().optional().meta({ description: 'Seconds to wait, when trying again will help.' }) }),
      },
      ...ERRORS,
    },
  }),
  usage: createRoute({
    method: 'get', path: '/usage', tags: ['Productions'], summary: "This month's usage and pitch cap",
    request: { query: WorkspaceQuery },
    responses: { 200: json(z.object({ usage: Usage }), 'Usage'), ...ERRORS },
  }),
  get: createRoute({
    method: 'get', path: '/{id}', tags: ['Productions'], summary: 'A production with its timeline',
    request: { params: Id },
    responses: {
      200: json(z.object({
        production: Production, events: z.array(ProductionEvent), queue: QueueStatus.nullable(), pitchMarkdown: z.string().nullable(),
      }), 'The production'),
      ...ERRORS,
    },
  }),
  greenlight: createRoute({
    method: 'post', path: '/{id}/greenlight', tags: ['Productions'], summary: 'Greenlight the pitch: charge credits once and make the video',
    request: { params: Id, body: optionalBody(GreenlightBody) },
    responses: {
      200: json(ProductionResponse, 'Greenlit'),
      402: error('Not enough credits (`credits`).'),
      409: error('The pitch is not ready or `pitchVersion` is out of date (`stage`).'),
      ...ERRORS, ...Unconfirmed,
    },
  }),
  comments: createRoute({
    method: 'post', path: '/{id}/comments', tags: ['Productions'], summary: 'Comment on the pitch; the next version is written (stage `writing_pitch`)',
    request: { params: Id, body: { required: true, content: { 'application/json': { schema: CommentBody } } } },
    responses: {
      200: json(ProductionResponse, 'The next pitch version is being written'),
      402: error('Not enough credits for the video (`credits`); the current pitch stands.'),
      409: error('The pitch is not awaiting an answer (`stage`) or no revisions are left (`revisions`).'),
      ...ERRORS, ...Unconfirmed,
    },
  }),
  decline: createRoute({
    method: 'post', path: '/{id}/decline', tags: ['Productions'], summary: 'Decline the pitch',
    request: { params: Id, body: optionalBody(DeclineBody) },
    responses: { 200: json(ProductionResponse, 'Declined'), 409: error('Already greenlit or ended (`stage`).'), ...ERRORS, ...Unconfirmed },
  }),
  cancel: createRoute({
    method: 'post', path: '/{id}/cancel', tags: ['Productions'], summary: 'Cancel; a charge is refunded in full before delivery',
    request: { params: Id, body: optionalBody(CancelBody) },
    responses: { 200: json(ProductionResponse, 'Cancelled'), 409: error('The production has already ended (`stage`).'), ...ERRORS, ...Unconfirmed },
  }),
};

/** /v1/productions (scope `productions`). Mounted behind auth and rate limits. */
export function productionRoutes<E extends Env>(deps: ProductionRouteDeps<E>) {
  const app = new OpenAPIHono<E>();

  app.openapi(routes.list, async (c) => c.json(await productionsOf(deps, deps.caller(c), c.req.valid('query')), 200));

  app.openapi(routes.create, async (c) => {
    const { production, replayed } = await createProduction(deps, deps.caller(c), c.req.valid('json'));
    if (replayed) {
      c.header('Idempotent-Replayed', 'true');
      return c.json({ production }, 200);
    }
    return c.json({ production }, 201);
  });

  app.openapi(routes.usage, async (c) => c.json(await monthlyUsage(deps, deps.caller(c), c.req.valid('query').workspaceId), 200));

  app.openapi(routes.get, async (c) => c.json(await productionDetail(deps, deps.caller(c), c.req.valid('param').id), 200));

  app.openapi(routes.greenlight, async (c) =>
    c.json({ production: await greenlight(deps, deps.caller(c), c.req.valid('param').id, optionalJson(c, GreenlightBody)) }, 200));

  app.openapi(routes.comments, async (c) =>
    c.json({ production: await comment(deps, deps.caller(c), c.req.valid('param').id, c.req.valid('json')) }, 200));

  app.openapi(routes.decline, async (c) =>
    c.json({ production: await decline(deps, deps.caller(c), c.req.valid('param').id, optionalJson(c, DeclineBody)) }, 200));

  app.openapi(routes.cancel, async (c) =>
    c.json({ production: await cancel(deps, deps.caller(c), c.req.valid('param').id, optionalJson(c, CancelBody)) }, 200));

  return app;
}

/**
 * A body that may be left out entirely (greenlight, decline, cancel). The validator has
 * already checked it when one was sent as JSON.
 */
function optionalJson<T extends z.ZodType>(c: Context, schema: T): z.infer<T> {
  const valid = (c.req.valid as (target: 'json') => unknown)('json');
  return (valid ?? schema.parse({})) as z.infer<T>;
}
