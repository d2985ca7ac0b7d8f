import type { Db } from '@vp/db';
import { Prisma } from '@vp/db';
import { balance } from '@vp/ledger';

type Tx = Db | Prisma.TransactionClient;

export function monthStart(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

/** Until the monthly pitch cap resets (the Retry-After of a `cap` refusal). */
export function secondsToNextMonth(now = new Date()): number {
  return Math.ceil((Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) - now.getTime()) / 1000);
}

/**
 * Pitch versions counted against the monthly cap: those written this month, plus
 * productions whose first pitch is still being written (they will write one).
 */
export async function pitchesUsed(db: Tx, workspaceId: string, now = new Date()): Promise<number> {
  const since = monthStart(now);
  const [written, pending] = await Promise.all([
    db.pitchVersion.count({ where: { workspaceId, createdAt: { gte: since } } }),
    db.production.count({ where: { workspaceId, stage: { in: ['queued', 'writing_pitch'] }, createdAt: { gte: since } } }),
  ]);
  return written + pending;
}

export async function usage(db: Db, workspace: { id: string; ownerId: string; pitchCap: number }, now = new Date()) {
  const since = monthStart(now);
  const [used, credits, charged, refunded, created, delivered] = await Promise.all([
    pitchesUsed(db, workspace.id, now),
    balance(db, workspace.ownerId),
    sumCredits(db, workspace.id, 'charge', since),
    sumCredits(db, workspace.id, 'refund', since),
    db.production.count({ where: { workspaceId: workspace.id, createdAt: { gte: since } } }),
    db.production.count({ where: { workspaceId: workspace.id, stage: 'delivered', createdAt: { gte: since } } }),
  ]);
  return {
    month: since.toISOString().slice(0, 7),
    pitches: { used, cap: workspace.pitchCap },
    credits: { balance: credits, charged, refunded },
    productions: { created, delivered },
  };
}

async function sumCredits(db: Db, workspaceId: string, kind: 'charge' | 'refund', since: Date): Promise<number> {
  const [row] = await db.$queryRaw<{ total: bigint | null }[]>`
    SELECT SUM(ABS(c.amount)) AS total FROM credit_entries c
    JOIN productions p ON p.id = c.production_id
    WHERE p.workspace_id = ${workspaceId}::uuid AND c.kind = ${kind}::credit_kind AND c.created_at >= ${since}`;
  return Number(row?.total ?? 0);
}
