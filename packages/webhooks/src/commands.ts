import { requireWorkspace, viewOnly, workspaceAccess } from '@vp/accounts';
import {
  DomainError, type Caller, type CreateWebhookBody, type UpdateWebhookBody, type WebhookDelivery, type WebhookEndpoint, type WebhookEndpointWithSecret,
} from '@vp/contracts';
import type { Db, WebhookEndpoint as EndpointRow } from '@vp/db';
import type { WebhookWorkflows } from '@vp/temporal-client';
import { createPing, createRedelivery, findDelivery, queryDeliveries, toDelivery, type DeliveryWithEvent } from './deliveries.ts';
import { findEndpoint, insertEndpoint, markEndpointDeleted, queryEndpoints, rotateSecret, saveEndpointChanges, toEndpoint } from './endpoints.ts';
import { deliveryRef } from './outbox.ts';
import { secretBoxFor, type WebhookSettings } from './settings.ts';
import { checkEndpointUrl } from './url.ts';

/** What the webhook commands run on; every front door builds one. */
export type WebhookDeps = {
  db: Db;
  settings: Pick<WebhookSettings, 'enabled' | 'allowPrivateUrls' | 'appUrl' | 'serverKey' | 'previousServerKey'>;
  deliveries: WebhookWorkflows;
  /** A delivery recorded whose workflow could not be started now: the outbox sweep starts it. */
  onUnstarted?: (deliveryId: string, error: unknown) => void;
};

type Page = { limit: number; cursor?: string };

const notFound = () => new DomainError('not_found', 'Webhook endpoint not found.');
const withSecret = (row: EndpointRow, secret: string): WebhookEndpointWithSecret => ({ ...toEndpoint(row), secret });

/** Spec: every webhook command answers `disabled` while webhooks are switched off on the server. */
export function requireWebhooks(settings: Pick<WebhookSettings, 'enabled'>): void {
  if (!settings.enabled) throw new DomainError('disabled', 'Webhooks are switched off on this server.');
}

/** An endpoint the caller may see (not_found otherwise, never revealing it exists); writes need an owner or editor. */
async function visibleEndpoint(deps: WebhookDeps, caller: Caller, id: string, write: boolean): Promise<EndpointRow> {
  requireWebhooks(deps.settings);
  const row = await findEndpoint(deps.db, id);
  if (!row) throw notFound();
  const access = await workspaceAccess(deps.db, caller.accountId, row.workspaceId);
  if (!access) throw notFound();
  if (write && !access.canWrite) throw viewOnly();
  return row;
}

/** https and public addresses only (the development switch allows http and private hosts). */
async function requireAcceptableUrl(deps: WebhookDeps, url: string) {
  const check = await checkEndpointUrl(url, { allowPrivate: deps.settings.allowPrivateUrls });
  if (!check.ok) throw DomainError.invalid('url', check.message);
}

/** Endpoint secrets are sealed under the server key; deriving the box is cheap. */
const box = (deps: WebhookDeps) => secretBoxFor(deps.settings);

export async function createEndpoint(deps: WebhookDeps, caller: Caller, body: CreateWebhookBody): Promise<{ endpoint: WebhookEndpointWithSecret }> {
  requireWebhooks(deps.settings);
  const access = await requireWorkspace(deps.db, caller.accountId, body.workspaceId, { write: true });
  await requireAcceptableUrl(deps, body.url);
  const { row, secret } = await insertEndpoint(deps.db, box(deps), {
    workspaceId: access.workspaceId, url: body.url, description: body.description, events: body.events,
  });
  return { endpoint: withSecret(row, secret) };
}

export async function listEndpoints(deps: WebhookDeps, caller: Caller, query: Page & { workspaceId?: string }): Promise<{ endpoints: WebhookEndpoint[]; nextCursor?: string }> {
  requireWebhooks(deps.settings);
  const access = await requireWorkspace(deps.db, caller.accountId, query.workspaceId, { write: false });
  const { rows, nextCursor } = await queryEndpoints(deps.db, access.workspaceId, query);
  return { endpoints: rows.map(toEndpoint), ...(nextCursor ? { nextCursor } : {}) };
}

export async function getEndpoint(deps: WebhookDeps, caller: Caller, id: string): Promise<{ endpoint: WebhookEndpoint }> {
  return { endpoint: toEndpoint(await visibleEndpoint(deps, caller, id, false)) };
}

/** A change of url, description, events or the switch; re-enabling resets the failure count. */
export async function updateEndpoint(deps: WebhookDeps, caller: Caller, id: string, patch: UpdateWebhookBody): Promise<{ endpoint: WebhookEndpoint }> {
  const row = await visibleEndpoint(deps, caller, id, true);
  if (patch.url !== undefined) await requireAcceptableUrl(deps, patch.url);
  return { endpoint: toEndpoint(await saveEndpointChanges(deps.db, row, patch)) };
}

export async function deleteEndpoint(deps: WebhookDeps, caller: Caller, id: string): Promise<void> {
  await visibleEndpoint(deps, caller, id, true);
  await markEndpointDeleted(deps.db, id);
}

/** A new secret, shown once; the previous one keeps signing for 24 hours. */
export async function rollSecret(deps: WebhookDeps, caller: Caller, id: string): Promise<{ endpoint: WebhookEndpointWithSecret }> {
  const { row, secret } = await rotateSecret(deps.db, box(deps), await visibleEndpoint(deps, caller, id, true));
  return { endpoint: withSecret(row, secret) };
}

export async function listDeliveries(deps: WebhookDeps, caller: Caller, id: string, page: Page): Promise<{ deliveries: WebhookDelivery[]; nextCursor?: string }> {
  await visibleEndpoint(deps, caller, id, false);
  const { rows, nextCursor } = await queryDeliveries(deps.db, id, page);
  return { deliveries: rows.map(toDelivery), ...(nextCursor ? { nextCursor } : {}) };
}

/** Queues a signed `ping` to the endpoint. */
export async function sendTestEvent(deps: WebhookDeps, caller: Caller, id: string): Promise<{ delivery: WebhookDelivery }> {
  const row = await sendable(deps, await visibleEndpoint(deps, caller, id, true));
  return queue(deps, await createPing(deps.db, row, deps.settings.appUrl));
}

/** Queues a copy of a delivery's event, with a new id and `redeliveryOf`. */
export async function redeliver(deps: WebhookDeps, caller: Caller, id: string, deliveryId: string): Promise<{ delivery: WebhookDelivery }> {
  const row = await visibleEndpoint(deps, caller, id, true);
  const original = await findDelivery(deps.db, deliveryId);
  if (!original || original.endpointId !== row.id) throw new DomainError('not_found', 'Delivery not found.');
  await sendable(deps, row);
  return queue(deps, await createRedelivery(deps.db, original));
}

/** `endpoint_disabled` for a switched-off endpoint; `wrong_server` when its url is one this server may not reach. */
async function sendable(deps: WebhookDeps, row: EndpointRow): Promise<EndpointRow> {
  if (!row.enabled) throw new DomainError('endpoint_disabled', `The endpoint is switched off${row.disabledReason ? `: ${row.disabledReason}` : ''}. Re-enable it first.`);
  const check = await checkEndpointUrl(row.url, { allowPrivate: deps.settings.allowPrivateUrls });
  if (!check.ok && check.reason !== 'not_found') {
    throw new DomainError('wrong_server', `This server cannot deliver to ${row.url}: ${check.message}`);
  }
  return row;
}

async function queue(deps: WebhookDeps, delivery: DeliveryWithEvent): Promise<{ delivery: WebhookDelivery }> {
  // Recorded first, as every event is: a start that fails here (or whose answer is lost after the
  // workflow began) is left to the outbox sweep, which starts any delivery never attempted.
  await deps.deliveries.startDelivery(deliveryRef(delivery)).catch((error: unknown) => deps.onUnstarted?.(delivery.id, error));
  return { delivery: toDelivery(delivery) };
}
