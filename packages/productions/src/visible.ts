import { Prisma, sqlPool, type Db, type PitchVersion, type Production as ProductionRow, type ProductionEvent as EventRow, type Role } from '@vp/db';

/** A production as one account sees it: its current pitch, the account's role there (null: not a member), its timeline. */
export type VisibleProduction = ProductionRow & { pitches: PitchVersion[]; role: Role | null; events: EventRow[] };

/** Columns are the fields in snake_case (every field of these models is mapped that way). */
const column = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const PRODUCTION = Object.values(Prisma.ProductionScalarFieldEnum).map((f) => `p.${column(f)} AS "${f}"`).join(', ');
const EVENT = Object.values(Prisma.ProductionEventScalarFieldEnum).map((f) => `'${f}', e.${column(f)}`).join(', ');

/**
 * One query for everything a read of one production needs — the row, its current pitch, the
 * caller's membership and, when asked, the timeline — straight through pg: this runs on every
 * GET /v1/productions/{id}, where the ORM's per-query cost would be most of the request.
 * The result has the shapes Prisma gives (a test holds the two together).
 */
export async function findProductionFor(db: Db, id: string, accountId: string, options: { timeline?: boolean } = {}): Promise<VisibleProduction | null> {
  const { rows } = await sqlPool(db).query<ProductionRow & { role: Role | null; pitch: unknown; pitchCreatedAt: Date | null; events: (Omit<EventRow, 'createdAt'> & { createdAt: string })[] | null }>({
    name: 'find-production-for',
    text: `SELECT ${PRODUCTION}, m.role, pv.pitch, pv.created_at AS "pitchCreatedAt",
       CASE WHEN $3 THEN (SELECT coalesce(json_agg(json_build_object(${EVENT}) ORDER BY e.seq), '[]') FROM production_events e WHERE e.production_id = p.id) END AS events
     FROM productions p
     LEFT JOIN pitch_versions pv ON pv.production_id = p.id AND pv.version = p.pitch_version
     LEFT JOIN memberships m ON m.workspace_id = p.workspace_id AND m.account_id = $2
     WHERE p.id = $1`,
    values: [id, accountId, options.timeline === true],
  });
  const row = rows[0];
  if (!row) return null;
  const { role, pitch, pitchCreatedAt, events, ...production } = row;
  return {
    ...production,
    role,
    pitches: pitchCreatedAt && production.pitchVersion !== null
      ? [{ productionId: production.id, version: production.pitchVersion, workspaceId: production.workspaceId, pitch: pitch as Prisma.JsonValue, createdAt: pitchCreatedAt }]
      : [],
    events: (events ?? []).map((e) => ({ ...e, createdAt: new Date(e.createdAt) })),
  };
}
