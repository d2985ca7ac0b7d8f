import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context, Env } from 'hono';
import {
  CreateWebhookBody, ErrorBody, Limit, StorableText, UpdateWebhookBody, WebhookDelivery, WebhookEndpoint, WebhookEndpointWithSecret,
  WebhookEventPayload,
} from '@vp/contracts';
import type { Caller } from '@vp/contracts';
import * as webhooks from '@vp/webhooks';

export type WebhookRouteDeps<E extends Env> = webhooks.WebhookDeps & {
  /** The authenticated caller of a request (set by the auth middleware). */
  caller: (c: Context<E>) => Caller;
};

const json = <T extends z.ZodType>(schema: T, description: string) => ({ description, content: { 'application/json': { schema } } });
const error = (description: string) => json(ErrorBody, description);
const ERRORS = {
  400: error('Invalid request; `issues` lists each problem.'),
  401: error('Missing, invalid or revoked API key.'),
  403: error('Missing scope (`api_key_missing_scope`) or view-only access (`forbidden`).'),
  404: error('No such endpoint, or not visible to this key (`not_found`).'),
  429: error('Rate limited (`rate_limited`): 60 a minute per key; see Retry-After.'),
  503: error('Webhooks are switched off on this server (`disabled`).'),
} as const;
const Queued = json(z.object({ delivery: WebhookDelivery }), 'Queued; attempted at once, then retried 30 s, 2 min, 10 min, 1 h and 6 h after failures. '
  + 'Recorded before it is started: one that cannot be started at once (Temporal unreachable) is started by the outbox sweep, within a minute or two of Temporal being back.');
const NotSendable = error('The endpoint is switched off (`endpoint_disabled`), or points at an address this server may not reach (`wrong_server`).');

const Cursor = StorableText.max(200).optional().meta({ description: 'Where the previous page ended: its `nextCursor`.' });
const Id = z.object({ id: z.uuid().meta({ param: { name: 'id', in: 'path' }, description: 'The endpoint id.' }) });
const body = <T extends z.ZodType>(schema: T) => ({ required: true, content: { 'application/json': { schema } } });
const EndpointResponse = z.object({ endpoint: WebhookEndpoint });
const WithSecretResponse = z.object({ endpoint: WebhookEndpointWithSecret });
const tags = ['Webhooks'];

const routes = {
  list: createRoute({
    method: 'get', path: '/', tags, summary: 'List webhook endpoints',
    request: { query: z.object({ workspaceId: z.uuid().optional(), limit: Limit, cursor: Cursor }) },
    responses: { 200: json(z.object({ endpoints: z.array(WebhookEndpoint), nextCursor: z.string().optional() }), 'Endpoints, newest first (ties broken by id)'), ...ERRORS },
  }),
  create: createRoute({
    method: 'post', path: '/', tags, summary: 'Add an endpoint; its signing secret is shown once',
    description: [
      'The url must be https and resolve only to public addresses (private, loopback, link-local, CGNAT and similar ranges are refused); it is checked again at each attempt. Without `events`, every event type but `production.progress`. At most 10 endpoints per workspace.',
      '',
      'Each event is POSTed as a `WebhookEventPayload` with `Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the secret>` (two `v1` for 24 hours after a roll), `Service-Event-Id` (stable across retries; dedupe on it) and `Service-Event-Type`. Any 2xx within 15 s acknowledges; anything else (redirects included) is retried 30 s, 2 min, 10 min, 1 h and 6 h later, then the delivery is `exhausted`. 410 Gone switches the endpoint off at once; 10 failures in a row with no success for 24 hours switch it off too.',
    ].join('\n'),
    request: { body: body(CreateWebhookBody) },
    responses: {
      201: json(WithSecretResponse, 'Created; `secret` (whsec_…) is returned only now and on a roll'),
      409: error('The workspace already has 10 endpoints (`limit`).'),
      ...ERRORS,
    },
  }),
  get: createRoute({
    method: 'get', path: '/{id}', tags, summary: 'An endpoint',
    request: { params: Id },
    responses: { 200: json(EndpointResponse, 'The endpoint'), ...ERRORS },
  }),
  update: createRoute({
    method: 'patch', path: '/{id}', tags, summary: 'Change an endpoint; re-enabling it resets its failure count',
    request: { params: Id, body: body(UpdateWebhookBody) },
    responses: { 200: json(EndpointResponse, 'The endpoint'), ...ERRORS },
  }),
  remove: createRoute({
    method: 'delete', path: '/{id}', tags, summary: 'Delete an endpoint; links sent to it stop working (403 `revoked`)',
    request: { params: Id },
    responses: { 204: { description: 'Deleted' }, ...ERRORS },
  }),
  roll: createRoute({
    method: 'post', path: '/{id}/roll-secret', tags, summary: 'Roll the signing secret; the previous one keeps signing for 24 hours',
    description: 'No body. During the overlap every delivery carries two `v1` signatures, one per secret (`previousSecretExpiresAt`).',
    request: { params: Id },
    responses: { 200: json(WithSecretResponse, 'The new `secret`, shown once'), ...ERRORS },
  }),
  test: createRoute({
    method: 'post', path: '/{id}/test', tags, summary: 'Send a signed `ping` event',
    request: { params: Id },
    responses: { 202: Queued, 409: NotSendable, ...ERRORS },
  }),
  deliveries: createRoute({
    method: 'get', path: '/{id}/deliveries', tags, summary: "An endpoint's deliveries, newest first",
    request: { params: Id, query: z.object({ limit: Limit, cursor: Cursor }) },
    responses: { 200: json(z.object({ deliveries: z.array(WebhookDelivery), nextCursor: z.string().optional() }), 'Deliveries'), ...ERRORS },
  }),
  redeliver: createRoute({
    method: 'post', path: '/{id}/deliveries/{deliveryId}/redeliver', tags, summary: 'Send a copy of a delivery\'s event (new `id`, `redeliveryOf` the original)',
    request: { params: Id.extend({ deliveryId: z.uuid().meta({ param: { name: 'deliveryId', in: 'path' } }) }) },
    responses: { 202: Queued, 409: NotSendable, ...ERRORS },
  }),
};

/** /v1/webhooks (scope `productions`). Mounted behind auth and rate limits. */
export function webhookRoutes<E extends Env>(deps: WebhookRouteDeps<E>) {
  const app = new OpenAPIHono<E>();
  // The body every delivery carries: documented as a component (a copy, made after zod is extended for OpenAPI).
  app.openAPIRegistry.register('WebhookEventPayload', WebhookEventPayload.extend({}));

  app.openapi(routes.list, async (c) => c.json(await webhooks.listEndpoints(deps, deps.caller(c), c.req.valid('query')), 200));
  app.openapi(routes.create, async (c) => c.json(await webhooks.createEndpoint(deps, deps.caller(c), c.req.valid('json')), 201));
  app.openapi(routes.get, async (c) => c.json(await webhooks.getEndpoint(deps, deps.caller(c), c.req.valid('param').id), 200));
  app.openapi(routes.update, async (c) => c.json(await webhooks.updateEndpoint(deps, deps.caller(c), c.req.valid('param').id, c.req.valid('json')), 200));
  app.openapi(routes.remove, async (c) => {
    await webhooks.deleteEndpoint(deps, deps.caller(c), c.req.valid('param').id);
    return c.body(null, 204);
  });
  app.openapi(routes.roll, async (c) => c.json(await webhooks.rollSecret(deps, deps.caller(c), c.req.valid('param').id), 200));
  app.openapi(routes.test, async (c) => c.json(await webhooks.sendTestEvent(deps, deps.caller(c), c.req.valid('param').id), 202));
  app.openapi(routes.deliveries, async (c) =>
    c.json(await webhooks.listDeliveries(deps, deps.caller(c), c.req.valid('param').id, c.req.valid('query')), 200));
  app.openapi(routes.redeliver, async (c) => {
    const { id, deliveryId } = c.req.valid('param');
    return c.json(await webhooks.redeliver(deps, deps.caller(c), id, deliveryId), 202);
  });
  return app;
}
