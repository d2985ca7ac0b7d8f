import type { Stage } from '@vp/contracts';
import { keyset, type Db } from '@vp/db';
import { withCurrentPitch } from './read-model.ts';

export type ListQuery = {
  workspaceId: string;
  stages?: Stage[];
  limit: number;
  cursor?: string;
  /** With `externalId`, only the production the creator's earlier create made. */
  externalId?: { value: string; createdBy: string };
};

/** Newest first, ties broken by id; one extra row tells whether there is a next page. */
export async function listProductions(db: Db, q: ListQuery) {
  const after = keyset.startOf(q.cursor);
  const rows = await db.production.findMany({
    where: {
      workspaceId: q.workspaceId,
      ...(q.stages ? { stage: { in: q.stages } } : {}),
      ...(q.externalId ? { externalId: q.externalId.value, createdBy: q.externalId.createdBy } : {}),
      ...keyset.after(after),
    },
    orderBy: keyset.newestFirst,
    take: q.limit + 1,
    include: withCurrentPitch,
  });
  return keyset.toPage(rows, q.limit);
}

export function findProduction(db: Db, id: string) {
  return db.production.findUnique({ where: { id }, include: withCurrentPitch });
}
