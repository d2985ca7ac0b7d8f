import { requireWorkspace } from '@vp/accounts';
import { omitCodeSources, type Caller, type Production, type ProductionEvent, type QueueStatus, type Stage } from '@vp/contracts';
import { pitchMarkdown } from '@vp/pitch';
import type { ProductionDeps } from './commands.ts';
import { requireProduction } from './commands.ts';
import { listProductions } from './queries.ts';
import { toEvent, toProduction, toQueueStatus } from './read-model.ts';
import { usage } from './usage.ts';

export type ProductionList = { productions: Production[]; nextCursor?: string };

/**
 * A workspace's productions, newest first (spec: Listing). Code files have `source` and `patch`
 * emptied; with `externalId`, the production an earlier create of the caller's with that id made.
 */
export async function productionsOf(
  deps: Pick<ProductionDeps, 'db' | 'appUrl'>, caller: Caller,
  query: { workspaceId?: string; stage?: Stage[]; limit: number; cursor?: string; externalId?: string },
): Promise<ProductionList> {
  const access = await requireWorkspace(deps.db, caller.accountId, query.workspaceId, { write: false });
  const { rows, nextCursor } = await listProductions(deps.db, {
    workspaceId: access.workspaceId, stages: query.stage, limit: query.limit, cursor: query.cursor,
    externalId: query.externalId ? { value: query.externalId, createdBy: caller.accountId } : undefined,
  });
  const productions = rows.map((row) => {
    const production = toProduction(row, deps.appUrl);
    return { ...production, brief: omitCodeSources(production.brief) };
  });
  return { productions, ...(nextCursor ? { nextCursor } : {}) };
}

export type ProductionDetail = { production: Production; events: ProductionEvent[]; queue: QueueStatus | null; pitchMarkdown: string | null };

/** One production with its timeline, its queue status while the video is made, and its pitch as markdown. */
export async function productionDetail(deps: Pick<ProductionDeps, 'db' | 'appUrl'>, caller: Caller, id: string): Promise<ProductionDetail> {
  const row = await requireProduction(deps, caller, id, { write: false, timeline: true });
  const production = toProduction(row, deps.appUrl);
  return {
    production,
    events: row.events.map(toEvent),
    queue: toQueueStatus(row),
    pitchMarkdown: production.pitch ? pitchMarkdown(production.pitch) : null,
  };
}

/** This month's usage of the targeted workspace and its pitch cap (DECISIONS: usage). */
export async function monthlyUsage(deps: Pick<ProductionDeps, 'db'>, caller: Caller, workspaceId?: string): Promise<{ usage: Awaited<ReturnType<typeof usage>> }> {
  const access = await requireWorkspace(deps.db, caller.accountId, workspaceId, { write: false });
  const workspace = await deps.db.workspace.findUniqueOrThrow({ where: { id: access.workspaceId } });
  return { usage: await usage(deps.db, workspace) };
}
