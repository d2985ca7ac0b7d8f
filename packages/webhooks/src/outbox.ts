import { randomUUID } from 'node:crypto';
import type { SubscribableEventType } from '@vp/contracts';
import type { Db, Prisma } from '@vp/db';
import { toProduction, toQueueStatus, type ProductionWithPitch } from '@vp/productions';
import { productionEventData } from './payload.ts';

type Tx = Prisma.TransactionClient;

/**
 * Records a production event in the outbox, inside the transaction of the stage change it
 * announces (`production` as that change left it), with one pending delivery per enabled
 * endpoint of the workspace subscribed to its type. Keyed by the step: a retried step records
 * nothing new. One statement: it sits on the path from every stage change to its receivers.
 */
export async function recordEvent(
  tx: Tx,
  input: { type: SubscribableEventType; production: ProductionWithPitch; sourceKey: string },
  options: { appUrl: string; enabled: boolean },
): Promise<void> {
  if (!options.enabled) return;
  const { production, type } = input;
  const data = productionEventData(type, toProduction(production, options.appUrl), toQueueStatus(production)?.lastProgress);
  await tx.$executeRaw`
    WITH subscribed AS (
      SELECT id FROM webhook_endpoints
      WHERE workspace_id = ${production.workspaceId}::uuid AND enabled AND deleted_at IS NULL AND ${type} = ANY(events)
    ), event AS (
      INSERT INTO webhook_events (id, workspace_id, production_id, type, source_key, data)
      SELECT ${randomUUID()}::uuid, ${production.workspaceId}::uuid, ${production.id}::uuid, ${type}, ${input.sourceKey}, ${JSON.stringify(data)}::jsonb
      WHERE EXISTS (SELECT FROM subscribed)
      ON CONFLICT (source_key) DO NOTHING
      RETURNING id
    )
    INSERT INTO webhook_deliveries (id, event_id, endpoint_id)
    SELECT gen_random_uuid(), event.id, subscribed.id FROM event CROSS JOIN subscribed`;
}

/** A delivery as its workflow is started: its id, and what operators find it by (the endpoint, the event's type, workspace and production). */
export type DeliveryRef = { id: string; endpointId: string; eventType: string; workspaceId: string; productionId: string | null };

const REF = { id: true, endpointId: true, event: { select: { type: true, workspaceId: true, productionId: true } } } as const;

/** A delivery row (with its event) as a DeliveryRef. */
export function deliveryRef(row: { id: string; endpointId: string; event: { type: string; workspaceId: string; productionId: string | null } }): DeliveryRef {
  return { id: row.id, endpointId: row.endpointId, eventType: row.event.type, workspaceId: row.event.workspaceId, productionId: row.event.productionId };
}

/** The deliveries still to make for the event a step recorded (none once they have all finished). */
export async function pendingDeliveriesOf(db: Db, sourceKey: string): Promise<DeliveryRef[]> {
  const rows = await db.webhookDelivery.findMany({ where: { event: { sourceKey }, status: 'pending' }, select: REF });
  return rows.map(deliveryRef);
}

/**
 * Deliveries recorded before `before` and never attempted: their workflow's start was lost (a
 * `production.progress` event's, which the render records outside any step; a step's own starts
 * are retried with it). The outbox sweep starts them; oldest first, a batch at a time.
 */
export async function unattemptedDeliveries(db: Db, before: Date, limit = 500): Promise<DeliveryRef[]> {
  const rows = await db.webhookDelivery.findMany({
    where: { status: 'pending', attempts: 0, createdAt: { lt: before } },
    orderBy: { createdAt: 'asc' },
    take: limit,
    select: REF,
  });
  return rows.map(deliveryRef);
}

/**
 * Deliveries attempted before and pending well past their due time (`before`): a retry overdue,
 * or an attempt claimed and never recorded. A running workflow would have made them: theirs
 * ended without them (terminated by an operator, say). Where each goes on: the overdue retry, or
 * the lapsed attempt again.
 */
export async function overdueDeliveries(db: Db, before: Date, limit = 100): Promise<(DeliveryRef & { nextAttempt: number })[]> {
  const rows = await db.webhookDelivery.findMany({
    where: {
      status: 'pending', attempts: { gt: 0 },
      OR: [{ nextAttemptAt: { lt: before } }, { nextAttemptAt: null, lastAttemptAt: { lt: before } }],
    },
    orderBy: { createdAt: 'asc' },
    take: limit,
    select: { ...REF, attempts: true, nextAttemptAt: true },
  });
  return rows.map((row) => ({ ...deliveryRef(row), nextAttempt: row.nextAttemptAt ? row.attempts + 1 : row.attempts }));
}
