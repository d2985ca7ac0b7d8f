import { workspaceAccess } from '@vp/accounts';
import type { Config } from '@vp/config';
import { ApiError, type CreateWebhookBody, type UpdateWebhookBody, type WebhookDelivery, type WebhookEndpoint, type WebhookEndpointWithSecret } from '@vp/contracts';
import type { WebhookEndpoint as EndpointRow } from '@vp/db';
import {
  checkEndpointUrl, createEndpoint, createPing, createRedelivery, deleteEndpoint, findDelivery, findEndpoint,
  listDeliveries, listEndpoints, rollSecret, secretBoxFor, toDelivery, toEndpoint, updateEndpoint, webhookSettings, type DeliveryWithEvent,
} from '@vp/webhooks';
import { startWebhookDelivery } from '@vp/workflows/webhook-start';
import type { GatewayDeps } from '../env.ts';
import { targetWorkspace, type Caller } from '../productions/service.ts';

export type WebhookDeps = Pick<GatewayDeps, 'config' | 'db' | 'temporal' | 'log'>;

const notFound = () => new ApiError(404, 'Webhook endpoint not found.', 'not_found');
const withSecret = (row: EndpointRow, secret: string): WebhookEndpointWithSecret => ({ ...toEndpoint(row), secret });

/** Spec: every webhook route answers 503 `disabled` while webhooks are switched off. */
export function requireWebhooks(config: Config) {
  if (!config.switches.webhooks) throw new ApiError(503, 'Webhooks are switched off on this server.', 'disabled');
}

/** An endpoint the caller may see (404 otherwise, never revealing it exists); writes need owner or editor. */
async function visibleEndpoint(deps: WebhookDeps, caller: Caller, id: string, write: boolean): Promise<EndpointRow> {
  const row = await findEndpoint(deps.db, id);
  if (!row) throw notFound();
  const access = await workspaceAccess(deps.db, caller.accountId, row.workspaceId);
  if (!access) throw notFound();
  if (write && !access.canWrite) throw new ApiError(403, 'You have view-only access to this workspace.', 'forbidden');
  return row;
}

/** https and public addresses only (the development switch allows http and private hosts): 400 otherwise. */
async function requireAcceptableUrl(config: Config, url: string) {
  const check = await checkEndpointUrl(url, { allowPrivate: config.allowPrivateUrls });
  if (!check.ok) throw ApiError.invalid('url', check.message);
}

export async function create(deps: WebhookDeps, caller: Caller, body: CreateWebhookBody): Promise<{ endpoint: WebhookEndpointWithSecret }> {
  const access = await targetWorkspace(deps.db, caller, body.workspaceId, true);
  await requireAcceptableUrl(deps.config, body.url);
  const { row, secret } = await createEndpoint(deps.db, box(deps), {
    workspaceId: access.workspaceId, url: body.url, description: body.description, events: body.events,
  });
  return { endpoint: withSecret(row, secret) };
}

export async function list(
  deps: WebhookDeps, caller: Caller, query: { workspaceId?: string; limit: number; cursor?: string },
): Promise<{ endpoints: WebhookEndpoint[]; nextCursor?: string }> {
  const access = await targetWorkspace(deps.db, caller, query.workspaceId, false);
  const { rows, nextCursor } = await listEndpoints(deps.db, access.workspaceId, query);
  return { endpoints: rows.map(toEndpoint), ...(nextCursor ? { nextCursor } : {}) };
}

export async function get(deps: WebhookDeps, caller: Caller, id: string) {
  return { endpoint: toEndpoint(await visibleEndpoint(deps, caller, id, false)) };
}

export async function update(deps: WebhookDeps, caller: Caller, id: string, patch: UpdateWebhookBody) {
  const row = await visibleEndpoint(deps, caller, id, true);
  if (patch.url !== undefined) await requireAcceptableUrl(deps.config, patch.url);
  return { endpoint: toEndpoint(await updateEndpoint(deps.db, row, patch)) };
}

export async function remove(deps: WebhookDeps, caller: Caller, id: string) {
  await visibleEndpoint(deps, caller, id, true);
  await deleteEndpoint(deps.db, id);
}

export async function roll(deps: WebhookDeps, caller: Caller, id: string) {
  const { row, secret } = await rollSecret(deps.db, box(deps), await visibleEndpoint(deps, caller, id, true));
  return { endpoint: withSecret(row, secret) };
}

export async function deliveries(deps: WebhookDeps, caller: Caller, id: string, page: { limit: number; cursor?: string }) {
  await visibleEndpoint(deps, caller, id, false);
  const { rows, nextCursor } = await listDeliveries(deps.db, id, page);
  return { deliveries: rows.map(toDelivery), ...(nextCursor ? { nextCursor } : {}) };
}

/** Queues a signed `ping` to the endpoint. */
export async function sendTest(deps: WebhookDeps, caller: Caller, id: string): Promise<{ delivery: WebhookDelivery }> {
  const row = await sendable(deps, await visibleEndpoint(deps, caller, id, true));
  return queue(deps, await createPing(deps.db, row, deps.config.appUrl));
}

/** Queues a copy of a delivery's event, with a new id and `redeliveryOf`. */
export async function redeliver(deps: WebhookDeps, caller: Caller, id: string, deliveryId: string): Promise<{ delivery: WebhookDelivery }> {
  const row = await visibleEndpoint(deps, caller, id, true);
  const original = await findDelivery(deps.db, deliveryId);
  if (!original || original.endpointId !== row.id) throw new ApiError(404, 'Delivery not found.', 'not_found');
  await sendable(deps, row);
  return queue(deps, await createRedelivery(deps.db, original));
}

/** 409 `endpoint_disabled` for a switched-off endpoint; 409 `wrong_server` when its url is one this server may not reach. */
async function sendable(deps: WebhookDeps, row: EndpointRow): Promise<EndpointRow> {
  if (!row.enabled) throw new ApiError(409, `The endpoint is switched off${row.disabledReason ? `: ${row.disabledReason}` : ''}. Re-enable it first.`, 'endpoint_disabled');
  const check = await checkEndpointUrl(row.url, { allowPrivate: deps.config.allowPrivateUrls });
  if (!check.ok && check.reason !== 'not_found') {
    throw new ApiError(409, `This server cannot deliver to ${row.url}: ${check.message}`, 'wrong_server');
  }
  return row;
}

async function queue(deps: WebhookDeps, delivery: DeliveryWithEvent): Promise<{ delivery: WebhookDelivery }> {
  // Recorded first, as every event is: a start that fails here (or whose answer is lost after the
  // workflow began) is left to the outbox sweep, which starts any delivery never attempted.
  await startWebhookDelivery(deps.temporal(), delivery.id, { taskQueuePrefix: deps.config.temporal.taskQueuePrefix, ...deps.config.webhooks })
    .catch((error: unknown) => deps.log.warn({ err: error, deliveryId: delivery.id }, 'delivery not started; the outbox sweep will start it'));
  return { delivery: toDelivery(delivery) };
}

/** Endpoint secrets are sealed under the server key; deriving the box is cheap. */
const box = (deps: WebhookDeps) => secretBoxFor(webhookSettings(deps.config));
