import { randomUUID } from 'node:crypto';
import type { Brief, GreenlightMode, Origin, SourceKind } from '@vp/contracts';
import { isUniqueViolation, Prisma, type Db, type Production as ProductionRow } from '@vp/db';
import { requirePitchAllowance, type Workspace } from './allowance.ts';

export type NewProduction = {
  workspace: Workspace;
  createdBy: string;
  /** The timeline's actor of the `created` entry, resolved (see namedActor). */
  actor: { actor: string; actorName: string | null };
  sourceKind: SourceKind;
  brief: Brief;
  greenlightMode: GreenlightMode;
  externalId?: string;
  origin?: Origin;
};

export type Inserted = { production: ProductionRow; replayed: boolean };

/** The production an earlier create with this externalId made (per creator and workspace). */
export function findByExternalId(db: Db, input: { createdBy: string; workspaceId: string; externalId: string }) {
  return db.production.findUnique({
    where: { createdBy_workspaceId_externalId: input },
  });
}

/**
 * The row a production workflow starts from, with its `created` timeline entry. Refuses (and
 * inserts nothing) when the rule for writing a pitch refuses it (credits, the pitch cap). A
 * repeated externalId replays the original, also when the duplicates race each other.
 */
export async function insertProduction(db: Db, input: NewProduction): Promise<Inserted> {
  const key = input.externalId ? { createdBy: input.createdBy, workspaceId: input.workspace.id, externalId: input.externalId } : null;
  if (key) {
    const existing = await findByExternalId(db, key);
    if (existing) return { production: existing, replayed: true };
  }
  try {
    const production = await db.$transaction(async (tx) => {
      await requirePitchAllowance(tx, input.workspace, input.brief.format.durationMs);
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
    if (key && isUniqueViolation(error)) {
      const existing = await findByExternalId(db, key);
      if (existing) return { production: existing, replayed: true };
    }
    throw error;
  }
}
