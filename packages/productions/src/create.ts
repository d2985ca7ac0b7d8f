import { randomUUID } from 'node:crypto';
import { ApiError, creditsFor, type Brief, type GreenlightMode, type Origin } from '@vp/contracts';
import { Prisma, type Db, type Production as ProductionRow } from '@vp/db';
import { balance } from '@vp/ledger';
import { pitchesUsed, secondsToNextMonth } from './usage.ts';

export type CreateInput = {
  workspace: { id: string; ownerId: string; pitchCap: number };
  createdBy: string;
  actor: { actor: string; actorName: string | null };
  sourceKind: 'api' | 'app' | 'mcp';
  brief: Brief;
  greenlightMode: GreenlightMode;
  externalId?: string;
  origin?: Origin;
};

export type CreateResult = { production: ProductionRow; replayed: boolean };

/** The production an earlier create with this externalId made (per creator and workspace). */
export function findByExternalId(db: Db, input: { createdBy: string; workspaceId: string; externalId: string }) {
  return db.production.findUnique({
    where: { createdBy_workspaceId_externalId: input },
  });
}

/**
 * Creates the row a production workflow starts from, with its `created` timeline entry.
 * Refuses (and creates nothing) when the owner's credits cannot pay for the video or the
 * workspace's monthly pitch cap is reached. A repeated externalId replays the original,
 * also when the duplicates race each other.
 */
export async function createProduction(db: Db, input: CreateInput): Promise<CreateResult> {
  const key = input.externalId ? { createdBy: input.createdBy, workspaceId: input.workspace.id, externalId: input.externalId } : null;
  if (key) {
    const existing = await findByExternalId(db, key);
    if (existing) return { production: existing, replayed: true };
  }
  try {
    const production = await db.$transaction(async (tx) => {
      // One create at a time per workspace, so concurrent creates cannot overrun the cap.
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${'pitch-cap:' + input.workspace.id}))`;
      const needed = creditsFor(input.brief.format.durationMs);
      const available = await balance(tx, input.workspace.ownerId);
      if (available < needed) {
        throw new ApiError(402, `This video needs ${needed} credits; the workspace owner has ${available}.`, 'credits');
      }
      const used = await pitchesUsed(tx, input.workspace.id);
      if (used >= input.workspace.pitchCap) {
        throw new ApiError(429, `This workspace has used its ${input.workspace.pitchCap} pitches for this month.`, 'cap', {
          'Retry-After': String(secondsToNextMonth()),
        });
      }
      const id = randomUUID();
      const row = await tx.production.create({
        data: {
          id,
          workspaceId: input.workspace.id,
          createdBy: input.createdBy,
          sourceKind: input.sourceKind,
          externalId: input.externalId ?? null,
          origin: (input.origin as Prisma.InputJsonValue | undefined) ?? Prisma.DbNull,
          brief: input.brief as Prisma.InputJsonValue,
          greenlightMode: input.greenlightMode,
        },
      });
      await tx.productionEvent.create({
        data: {
          id: randomUUID(),
          productionId: id,
          kind: 'created',
          ...input.actor,
          payload: { stage: 'queued', externalId: input.externalId ?? null },
          stepKey: `${id}:created`,
        },
      });
      return row;
    });
    return { production, replayed: false };
  } catch (error) {
    // A concurrent duplicate won the unique (creator, workspace, externalId): replay it.
    if (key && error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      const existing = await findByExternalId(db, key);
      if (existing) return { production: existing, replayed: true };
    }
    throw error;
  }
}
