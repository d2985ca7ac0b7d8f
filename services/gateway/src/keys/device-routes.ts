import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { Env } from 'hono';
import { pollKeyRequest, requestKey, type KeyRequestDeps } from '@vp/accounts';
import { ErrorBody, KeyPollBody, KeyPollResponse, KeyRequestBody, KeyRequestStarted } from '@vp/contracts';
import { socketAddress } from '../auth/guard.ts';
import { clientAddress } from '../http/client-address.ts';

export type DeviceRouteDeps = KeyRequestDeps & { trustedProxies: number };

const json = <T extends z.ZodType>(schema: T, description: string) => ({ description, content: { 'application/json': { schema } } });
const error = (description: string) => json(ErrorBody, description);
const body = <T extends z.ZodType>(schema: T) => ({ required: true, content: { 'application/json': { schema } } });
const tags = ['API keys'];
const PUBLIC = { security: [] };
const LIMITED = error('Rate limited (`rate_limited`): 60 a minute per address for /v1/keys; see Retry-After.');
const AWAY = error('Key requests cannot be taken or answered right now; try again shortly (see Retry-After).');

const request = createRoute({
  method: 'post', path: '/request', tags, summary: 'Ask for a key (device flow)', ...PUBLIC,
  description: [
    'For a tool without a browser session (a CLI, an editor panel, a capture tool); no key needed. Show `approvalUrl` (or `userCode`) '
      + 'to a person, who signs in to the app and approves once; then poll `POST /v1/keys/poll` every `pollIntervalSeconds` (3). '
      + 'The request waits 10 minutes for its answer. The key it gives carries all four scopes and acts as the approving account.',
  ].join('\n'),
  request: { body: body(KeyRequestBody) },
  responses: { 201: json(KeyRequestStarted, 'Requested; waiting for a person to approve it'), 400: error('Invalid body; `issues` lists each problem.'), 429: LIMITED, 503: AWAY },
});

const poll = createRoute({
  method: 'post', path: '/poll', tags, summary: 'Poll a key request (device flow)', ...PUBLIC,
  description: [
    '`pending` until a person answers; `approved` with `apiKey` exactly once, on the first poll after approval (concurrent polls: '
      + 'one gets the key, the others `claimed`); `claimed` after that; `denied` when refused; `expired` after 10 minutes without an answer, '
      + 'or when an approved key was not claimed within 10 minutes (the key is then revoked). With `revokeClaimed: true`, a claimed key '
      + 'is revoked (answer `expired`) until 15 minutes after its claim window ends: a tool that lost the key can undo it.',
  ].join('\n'),
  request: { body: body(KeyPollBody) },
  responses: {
    200: json(KeyPollResponse, 'Where the request is'),
    400: error('Invalid body; `issues` lists each problem.'),
    404: error('No request has this device code (`not_found`).'),
    429: LIMITED, 503: AWAY,
  },
});

/** `/v1/keys/request` and `/v1/keys/poll`: the device flow (spec: Authentication 6), public and limited per address. */
export function deviceKeyRoutes<E extends Env>(deps: DeviceRouteDeps) {
  const app = new OpenAPIHono<E>();
  app.openapi(request, async (c) => {
    const { name } = c.req.valid('json');
    const address = clientAddress(c.req.header('x-forwarded-for'), socketAddress(c), deps.trustedProxies);
    const requestedFrom = address === 'unknown' ? null : address;
    return c.json(await requestKey(deps, { name, requestedFrom }), 201);
  });
  app.openapi(poll, async (c) => c.json(await pollKeyRequest(deps, c.req.valid('json')), 200));
  return app;
}
