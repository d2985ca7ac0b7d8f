import { randomUUID } from 'node:crypto';
import { isTerminal, type ProductionEvent, type Stage } from '@vp/contracts';
import { PRODUCTION_GONE } from '@vp/contracts/temporal';
import { Prisma, type Db } from '@vp/db';
import { withCurrentPitch, type ProductionWithPitch } from './read-model.ts';

export type Step = {
  productionId: string;
  /** Unique per workflow step, so a retried activity writes its timeline entry once. */
  stepKey: string;
  /** The stages this step may start from; anything else leaves the production as it is. */
  from: readonly Stage[];
  event: { kind: ProductionEvent['kind']; actor: string; actorName: string | null; payload: Record<string, unknown> };
  update: Prisma.ProductionUncheckedUpdateInput;
  /**
   * Runs in the same transaction once the change is written, given the production as it now
   * is (the webhook outbox records the step's event from it).
   */
  after?: (tx: Prisma.TransactionClient, production: ProductionWithPitch) => Promise<void>;
};

export type StepResult = { applied: true; replayed: boolean } | { applied: false; stage: Stage };

type Tx = Prisma.TransactionClient;

/** Its class name is the failure type (`PRODUCTION_GONE`) that the steps' retry policy does not retry. */
export class ProductionGoneError extends Error {
  override name = PRODUCTION_GONE;
  constructor(productionId: string) {
    super(`Production ${productionId} does not exist`);
  }
}

/** Work done inside a step's transaction (a charge, a pitch row); it may add to the entry and the update. */
export type StepWork = (tx: Tx) => Promise<{ payload?: Record<string, unknown>; update?: Prisma.ProductionUncheckedUpdateInput } | void>;

/**
 * Applies one stage change: the read model and exactly one timeline entry, in one
 * transaction, at most once per step key. `work` runs inside the same transaction
 * and may veto the step by throwing.
 */
export async function applyStep(db: Db, step: Step, work?: StepWork): Promise<StepResult> {
  return db.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ stage: Stage }[]>`
      SELECT stage FROM productions WHERE id = ${step.productionId}::uuid FOR UPDATE`;
    if (!row) throw new ProductionGoneError(step.productionId);
    const done = await tx.productionEvent.findUnique({ where: { stepKey: step.stepKey }, select: { id: true } });
    if (done) return { applied: true, replayed: true };
    // Terminal stages are never in `from`: once there, a production stays.
    if (!step.from.includes(row.stage) || isTerminal(row.stage)) {
      return { applied: false, stage: row.stage };
    }
    const more = (await work?.(tx)) ?? {};
    const payload = { ...step.event.payload, ...more.payload } as Prisma.InputJsonValue;
    await tx.productionEvent.create({
      data: { id: randomUUID(), productionId: step.productionId, stepKey: step.stepKey, ...step.event, payload },
    });
    const change = { where: { id: step.productionId }, data: { ...step.update, ...more.update } };
    if (step.after) await step.after(tx, await tx.production.update({ ...change, include: withCurrentPitch }));
    else await tx.production.update(change);
    return { applied: true, replayed: false };
  });
}

/** A timeline note that changes no stage (progress phases). Written once per step key. */
export async function addNote(db: Db, input: { productionId: string; stepKey: string; actor: string; actorName: string | null; payload: Record<string, unknown> }) {
  await db.productionEvent.createMany({
    data: [{ id: randomUUID(), productionId: input.productionId, stepKey: input.stepKey, kind: 'note', actor: input.actor, actorName: input.actorName, payload: input.payload as Prisma.InputJsonValue }],
    skipDuplicates: true,
  });
}
