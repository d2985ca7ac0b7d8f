import { Prisma, type Db } from '@vp/db';

/**
 * The credits ledger: append-only entries per account; the balance is their sum.
 * A charge and a refund are unique per production, so a retried activity never
 * charges or refunds twice.
 */
type Tx = Db | Prisma.TransactionClient;

export async function balance(db: Tx, accountId: string): Promise<number> {
  const { _sum } = await db.creditEntry.aggregate({ where: { accountId }, _sum: { amount: true } });
  return _sum.amount ?? 0;
}

export async function grant(db: Tx, accountId: string, amount: number, note: string | null = null) {
  if (!Number.isInteger(amount) || amount <= 0) throw new RangeError('A grant is a positive whole number of credits');
  return db.creditEntry.create({ data: { accountId, kind: 'grant', amount, note } });
}

/** Serialises the account's charges and refunds until the transaction ends. */
async function lockAccount(tx: Prisma.TransactionClient, accountId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${'credits:' + accountId}))`;
}

export type ChargeResult = { ok: true; charged: number; alreadyCharged: boolean } | { ok: false; balance: number };

/**
 * Charges a production once, inside the caller's transaction. Serialised per account
 * with an advisory lock so two productions cannot both spend the same credits;
 * idempotent per production.
 */
export async function chargeWithin(tx: Prisma.TransactionClient, input: { accountId: string; productionId: string; amount: number }): Promise<ChargeResult> {
  await lockAccount(tx, input.accountId);
  const existing = await tx.creditEntry.findUnique({
    where: { productionId_kind: { productionId: input.productionId, kind: 'charge' } },
  });
  if (existing) return { ok: true, charged: -existing.amount, alreadyCharged: true };
  const available = await balance(tx, input.accountId);
  if (available < input.amount) return { ok: false, balance: available };
  await tx.creditEntry.create({
    data: { accountId: input.accountId, kind: 'charge', amount: -input.amount, productionId: input.productionId },
  });
  return { ok: true, charged: input.amount, alreadyCharged: false };
}

export function chargeProduction(db: Db, input: { accountId: string; productionId: string; amount: number }): Promise<ChargeResult> {
  return db.$transaction((tx) => chargeWithin(tx, input));
}

/**
 * Refunds a production's charge in full, once, inside the caller's transaction; 0 when nothing was
 * charged. Serialised per account as charges are: a retry racing the first run (a step that timed
 * out but still runs) finds the refund made, rather than failing on its unique key.
 */
export async function refundWithin(tx: Prisma.TransactionClient, productionId: string): Promise<number> {
  const charge = await tx.creditEntry.findUnique({ where: { productionId_kind: { productionId, kind: 'charge' } } });
  if (!charge) return 0;
  await lockAccount(tx, charge.accountId);
  const refund = await tx.creditEntry.upsert({
    where: { productionId_kind: { productionId, kind: 'refund' } },
    create: { accountId: charge.accountId, kind: 'refund', amount: -charge.amount, productionId },
    update: {},
  });
  return refund.amount;
}

export function refundProduction(db: Db, productionId: string): Promise<number> {
  return db.$transaction((tx) => refundWithin(tx, productionId));
}

export type LedgerEntry = { id: string; kind: 'grant' | 'charge' | 'refund'; amount: number; productionId: string | null; note: string | null; createdAt: Date };

/**
 * The entries a workspace's page shows, newest first: those of the account its credits belong
 * to (its owner's) that are not about a production, and those about the workspace's own
 * productions. Charges for the owner's other workspaces stay on those.
 */
export function workspaceEntries(db: Tx, input: { ownerId: string; workspaceId: string; limit: number }): Promise<LedgerEntry[]> {
  return db.$queryRaw<LedgerEntry[]>`
    SELECT id, kind::text AS kind, amount, production_id AS "productionId", note, created_at AS "createdAt" FROM credit_entries
    WHERE account_id = ${input.ownerId}::uuid
      AND (production_id IS NULL OR production_id IN (SELECT id FROM productions WHERE workspace_id = ${input.workspaceId}::uuid))
    ORDER BY created_at DESC, id DESC LIMIT ${input.limit}`;
}
