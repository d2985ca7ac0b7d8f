import { randomUUID } from 'node:crypto';
import type { SubscribableEventType } from '@vp/contracts';
import { Prisma, type Db } from '@vp/db';
import { toProduction, toQueueStatus, withCurrentPitch } from '@vp/productions';
import { productionEventData } from './payload.ts';

type Tx = Prisma.TransactionClient;

/**
 * Records a production event in the outbox, inside the transaction of the stage change it
 * announces, with one pending delivery per enabled endpoint of the workspace subscribed to
 * its type. Keyed by the step: a retried step records nothing new.
 */
export async function recordEvent(
  tx: Tx,
  input: { type: SubscribableEventType; productionId: string; sourceKey: string },
  options: { appUrl: string; enabled: boolean },
): Promise<void> {
  if (!options.enabled) return;
  const production = await tx.production.findUniqueOrThrow({ where: { id: input.productionId }, include: withCurrentPitch });
  const endpoints = await tx.webhookEndpoint.findMany({
    where: { workspaceId: production.workspaceId, enabled: true, deletedAt: null, events: { has: input.type } },
    select: { id: true },
  });
  if (!endpoints.length) return;
  const inserted = await tx.webhookEvent.createManyAndReturn({
    data: [{
      id: randomUUID(),
      workspaceId: production.workspaceId,
      productionId: production.id,
      type: input.type,
      sourceKey: input.sourceKey,
      data: productionEventData(input.type, toProduction(production, options.appUrl), toQueueStatus(production)?.lastProgress) as Prisma.InputJsonValue,
    }],
    skipDuplicates: true,
    select: { id: true },
  });
  const [event] = inserted;
  if (!event) return;
  await tx.webhookDelivery.createMany({ data: endpoints.map((endpoint) => ({ id: randomUUID(), eventId: event.id, endpointId: endpoint.id })) });
}

/** The deliveries still to make for the event a step recorded (none once they have all finished). */
export async function pendingDeliveriesOf(db: Db, sourceKey: string): Promise<string[]> {
  const rows = await db.webhookDelivery.findMany({ where: { event: { sourceKey }, status: 'pending' }, select: { id: true } });
  return rows.map((row) => row.id);
}
