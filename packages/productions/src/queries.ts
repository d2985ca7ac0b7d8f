import type { Stage } from '@vp/contracts';
import type { Db } from '@vp/db';
import { withCurrentPitch } from './read-model.ts';

export type ListQuery = {
  workspaceId: string;
  stages?: Stage[];
  limit: number;
  cursor?: string;
  /** With `externalId`, only the production the creator's earlier create made. */
  externalId?: { value: string; createdBy: string };
};

/** Opaque cursor: the last row's position in newest-first order. */
export function encodeCursor(row: { createdAt: Date; id: string }): string {
  return Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString('base64url');
}

export function decodeCursor(cursor: string): { createdAt: Date; id: string } | null {
  const [at, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  const createdAt = new Date(at ?? '');
  if (!id || Number.isNaN(createdAt.getTime()) || !/^[0-9a-f-]{36}$/.test(id)) return null;
  return { createdAt, id };
}

/** Newest first, ties broken by id; one extra row tells whether there is a next page. */
export async function listProductions(db: Db, q: ListQuery) {
  const after = q.cursor ? decodeCursor(q.cursor) : null;
  const rows = await db.production.findMany({
    where: {
      workspaceId: q.workspaceId,
      ...(q.stages ? { stage: { in: q.stages } } : {}),
      ...(q.externalId ? { externalId: q.externalId.value, createdBy: q.externalId.createdBy } : {}),
      ...(after
        ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }
        : {}),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: q.limit + 1,
    include: withCurrentPitch,
  });
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  return { rows: page, nextCursor: rows.length > q.limit && last ? encodeCursor(last) : null };
}

export function findProduction(db: Db, id: string) {
  return db.production.findUnique({ where: { id }, include: withCurrentPitch });
}
