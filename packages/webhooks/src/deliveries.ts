import { randomUUID } from 'node:crypto';
import type { EventType, WebhookDelivery } from '@vp/contracts';
import { keyset, Prisma, type Db, type WebhookDelivery as DeliveryRow, type WebhookEndpoint as EndpointRow, type WebhookEvent as EventRow } from '@vp/db';
import { pingEventData } from './payload.ts';

export type DeliveryWithEvent = DeliveryRow & { event: Pick<EventRow, 'id' | 'type' | 'workspaceId' | 'productionId' | 'redeliveryOf'> };

const withEvent = { event: { select: { id: true, type: true, workspaceId: true, productionId: true, redeliveryOf: true } } } as const;

export function toDelivery(row: DeliveryWithEvent): WebhookDelivery {
  return {
    id: row.id,
    endpointId: row.endpointId,
    productionId: row.event.productionId,
    event: row.event.type as EventType,
    eventId: row.event.id,
    redeliveryOf: row.event.redeliveryOf,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
    lastResponseStatus: row.lastResponseStatus,
    lastResponseBody: row.lastResponseBody,
    lastError: row.lastError,
    lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** An endpoint's deliveries, newest first (ties by id), with a cursor to the next page. */
export async function queryDeliveries(db: Db, endpointId: string, page: { limit: number; cursor?: string }) {
  const after = keyset.startOf(page.cursor);
  const rows = await db.webhookDelivery.findMany({
    where: {
      endpointId,
      ...keyset.after(after),
    },
    orderBy: keyset.newestFirst,
    take: page.limit + 1,
    include: withEvent,
  });
  return keyset.toPage(rows, page.limit);
}

export function findDelivery(db: Db, id: string) {
  return db.webhookDelivery.findUnique({ where: { id }, include: withEvent });
}

/** A test event (`ping`) for one endpoint, with its pending delivery. */
export async function createPing(db: Db, endpoint: EndpointRow, appUrl: string): Promise<DeliveryWithEvent> {
  const eventId = randomUUID();
  return db.$transaction(async (tx) => {
    await tx.webhookEvent.create({
      data: { id: eventId, workspaceId: endpoint.workspaceId, type: 'ping', data: pingEventData(endpoint.id, appUrl) as Prisma.InputJsonValue },
    });
    return tx.webhookDelivery.create({ data: { id: randomUUID(), eventId, endpointId: endpoint.id }, include: withEvent });
  });
}

/** A copy of a delivery's event with a new id and `redeliveryOf`, to the same endpoint. */
export async function createRedelivery(db: Db, original: DeliveryRow): Promise<DeliveryWithEvent> {
  const event = await db.webhookEvent.findUniqueOrThrow({ where: { id: original.eventId } });
  const eventId = randomUUID();
  return db.$transaction(async (tx) => {
    await tx.webhookEvent.create({
      data: {
        id: eventId, workspaceId: event.workspaceId, productionId: event.productionId, type: event.type,
        redeliveryOf: event.redeliveryOf ?? event.id, data: event.data as Prisma.InputJsonValue,
      },
    });
    return tx.webhookDelivery.create({ data: { id: randomUUID(), eventId, endpointId: original.endpointId }, include: withEvent });
  });
}
