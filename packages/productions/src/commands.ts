import { namedActor, requireWorkspace, viewOnly } from '@vp/accounts';
import { canWrite, DomainError, UNAVAILABLE_RETRY_AFTER_SECONDS, type Caller, type CreateProductionBody, type Production } from '@vp/contracts';
import type { Db } from '@vp/db';
import type { ProductionWorkflows } from '@vp/temporal-client';
import { insertProduction } from './create.ts';
import { secondsToNextMonth } from './usage.ts';
import { findProduction } from './queries.ts';
import { toProduction } from './read-model.ts';
import { findProductionFor } from './visible.ts';

/** What the production commands run on; every front door builds one. */
export type ProductionDeps = {
  db: Db;
  workflows: ProductionWorkflows;
  /** Where the app is (`pageUrl`). */
  appUrl: string;
  /** Whether pitches can be written on this server (spec: 503 `disabled` on create). */
  pitchesEnabled: boolean;
};

const notFound = () => new DomainError('not_found', 'Production not found.');

/** A production the caller may see (not_found otherwise, never revealing it exists); writes need an owner or editor. */
export async function requireProduction(deps: Pick<ProductionDeps, 'db'>, caller: Caller, id: string, options: { write: boolean; timeline?: boolean }) {
  const row = await findProductionFor(deps.db, id, caller.accountId, { timeline: options.timeline });
  if (!row?.role) throw notFound();
  if (options.write && !canWrite(row.role)) throw viewOnly();
  return row;
}

async function current(deps: ProductionDeps, id: string): Promise<Production> {
  const row = await findProduction(deps.db, id);
  if (!row) throw notFound();
  return toProduction(row, deps.appUrl);
}

/**
 * Create: a brief in, a production `queued` with its pitch written in the background (free, but
 * only when the owner's credits cover the video and the month's pitches are under the cap).
 * `externalId` makes it idempotent per creator and workspace: a repeat replays the original.
 */
export async function createProduction(deps: ProductionDeps, caller: Caller, request: CreateProductionBody): Promise<{ production: Production; replayed: boolean }> {
  const access = await requireWorkspace(deps.db, caller.accountId, request.workspaceId, { write: true });
  if (!deps.pitchesEnabled) throw new DomainError('disabled', 'Pitches cannot be written right now.');
  const workspace = await deps.db.workspace.findUniqueOrThrow({ where: { id: access.workspaceId } });
  const { production, replayed } = await insertProduction(deps.db, {
    workspace, createdBy: caller.accountId, actor: await namedActor(deps.db, caller), sourceKind: caller.via, brief: request.brief,
    greenlightMode: request.greenlightMode, externalId: request.externalId, origin: request.origin,
  });
  try {
    // Starting is idempotent by workflow id: a replay also heals a create whose start was lost.
    await deps.workflows.start({ productionId: production.id, workspaceId: production.workspaceId, greenlightMode: production.greenlightMode as 'manual' | 'auto' });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    // A replay answers with the original whatever the heal did: its next replay tries again.
    if (replayed) return { production: await current(deps, production.id), replayed };
    // Nothing half-made: without its workflow the row would never move.
    await deps.db.production.delete({ where: { id: production.id } });
    // `disabled`, as the spec has it for a create whose pitch cannot be written; with when to try again.
    throw new DomainError('disabled', 'Productions cannot be started right now; nothing was created. Try again shortly.', { retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS });
  }
  return { production: await current(deps, production.id), replayed };
}

/** Greenlight: credits charged once, the project created, the video queued (spec: 402 `credits`, 409 `stage`). */
export async function greenlight(deps: ProductionDeps, caller: Caller, id: string, request: { pitchVersion?: number }): Promise<Production> {
  await requireOpen(deps, caller, id);
  await deps.workflows.greenlight(id, { actor: caller.actor, pitchVersion: request.pitchVersion });
  return current(deps, id);
}

/** Comments: the next pitch version is written (stage `writing_pitch`); it is paid for and capped as the first. */
export async function comment(deps: ProductionDeps, caller: Caller, id: string, request: { comment: string; pitchVersion?: number }): Promise<Production> {
  await requireOpen(deps, caller, id);
  await deps.workflows.comment(id, { actor: caller.actor, comment: request.comment, pitchVersion: request.pitchVersion }).catch(withCapRetry);
  return current(deps, id);
}

/** Decline: not once greenlit (409 `stage`). */
export async function decline(deps: ProductionDeps, caller: Caller, id: string, request: { reason?: string }): Promise<Production> {
  await requireOpen(deps, caller, id);
  await deps.workflows.decline(id, { actor: caller.actor, reason: request.reason ?? null });
  return current(deps, id);
}

/** Cancel: in any stage but a final one; a charge is refunded in full before delivery. */
export async function cancel(deps: ProductionDeps, caller: Caller, id: string, request: { reason?: string }): Promise<Production> {
  await requireOpen(deps, caller, id);
  await deps.workflows.cancel(id, { actor: caller.actor, reason: request.reason ?? null });
  return current(deps, id);
}

/** A production the caller may change, not yet in a final stage (its workflow has ended then). */
async function requireOpen(deps: ProductionDeps, caller: Caller, id: string) {
  const row = await requireProduction(deps, caller, id, { write: true });
  if (toProduction(row, deps.appUrl).terminal) throw new DomainError('stage', `The production is already ${row.stage}.`);
}

/** A pitch refused for the monthly cap may be asked for again when the month turns. */
export function withCapRetry(error: unknown): never {
  if (error instanceof DomainError && error.code === 'cap' && error.details.retryAfterSeconds === undefined) {
    throw new DomainError('cap', error.message, { retryAfterSeconds: secondsToNextMonth() });
  }
  throw error;
}
