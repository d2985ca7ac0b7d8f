import type { Client } from '@temporalio/client';
import { WorkflowIdConflictPolicy } from '@temporalio/client';
import { workspaceAccess, type WorkspaceAccess } from '@vp/accounts';
import type { Config } from '@vp/config';
import { ApiError, canWrite, omitCodeSources, UNAVAILABLE_RETRY_AFTER_SECONDS, type CreateProductionBody, type Stage } from '@vp/contracts';
import type { Db } from '@vp/db';
import { pitchMarkdown } from '@vp/pitch';
import {
  createProduction, findProduction, findProductionFor, listProductions, toEvent, toProduction, toQueueStatus, usage,
  type ProductionWithPitch,
} from '@vp/productions';
import { cancelUpdate, commentUpdate, declineUpdate, greenlightUpdate, type ActorRef } from '@vp/workflows/definitions';
import { productionWorkflowStart } from '@vp/workflows/start';
import { updateProduction } from './commands.ts';

export type ProductionDeps = { config: Config; db: Db; temporal: () => Client };
/** The account acting, and how the timeline names it. */
export type Caller = { accountId: string; actor: ActorRef };

const notFound = () => new ApiError(404, 'Production not found.', 'not_found');

/** The caller's access to the workspace a request targets (personal when none is named). */
export async function targetWorkspace(db: Db, caller: Caller, workspaceId: string | undefined, write: boolean): Promise<WorkspaceAccess> {
  const access = await workspaceAccess(db, caller.accountId, workspaceId);
  if (!access) throw new ApiError(404, 'Workspace not found.', 'not_found');
  if (write && !access.canWrite) throw new ApiError(403, 'You have view-only access to this workspace.', 'forbidden');
  return access;
}

/** A production the caller may see (404 otherwise, never revealing it exists); writes need owner or editor. */
async function visibleProduction(deps: ProductionDeps, caller: Caller, id: string, options: { write: boolean; timeline?: boolean }) {
  const row = await findProductionFor(deps.db, id, caller.accountId, { timeline: options.timeline });
  if (!row?.role) throw notFound();
  if (options.write && !canWrite(row.role)) throw new ApiError(403, 'You have view-only access to this workspace.', 'forbidden');
  return row;
}

const show = (deps: ProductionDeps, row: ProductionWithPitch) => toProduction(row, deps.config.appUrl);

export async function createFromApi(deps: ProductionDeps, caller: Caller, body: CreateProductionBody) {
  const access = await targetWorkspace(deps.db, caller, body.workspaceId, true);
  if (!deps.config.switches.pitches) throw new ApiError(503, 'Pitches cannot be written right now.', 'disabled');
  const workspace = await deps.db.workspace.findUniqueOrThrow({ where: { id: access.workspaceId } });
  const { production, replayed } = await createProduction(deps.db, {
    workspace, createdBy: caller.accountId, actor: caller.actor, sourceKind: 'api', brief: body.brief,
    greenlightMode: body.greenlightMode, externalId: body.externalId, origin: body.origin,
  });
  // Starting is idempotent by workflow id: a replay also heals a create whose start was lost.
  const start = productionWorkflowStart({
    productionId: production.id, greenlightMode: production.greenlightMode as 'manual' | 'auto',
    taskQueuePrefix: deps.config.temporal.taskQueuePrefix, stepTimeoutMs: deps.config.worker.stepTimeoutMs,
    renderHeartbeatTimeoutMs: deps.config.render.heartbeatTimeoutMs,
  });
  try {
    await deps.temporal().workflow.start('productionWorkflow', {
      ...start, workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    });
  } catch (error) {
    if (!replayed && !isAlreadyStarted(error)) {
      // Nothing half-made: without its workflow the row would never move.
      await deps.db.production.delete({ where: { id: production.id } });
      // `disabled`, as the spec has it for a create whose pitch cannot be written; Retry-After says when to try again.
      throw new ApiError(503, 'Productions cannot be started right now; nothing was created. Try again shortly.', 'disabled', {
        'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS),
      });
    }
  }
  const row = await findProduction(deps.db, production.id);
  return { production: show(deps, row!), replayed };
}

function isAlreadyStarted(error: unknown): boolean {
  return error instanceof Error && error.name === 'WorkflowExecutionAlreadyStartedError';
}

export async function list(
  deps: ProductionDeps,
  caller: Caller,
  query: { workspaceId?: string; stage?: Stage[]; limit: number; cursor?: string; externalId?: string },
) {
  const access = await targetWorkspace(deps.db, caller, query.workspaceId, false);
  const { rows, nextCursor } = await listProductions(deps.db, {
    workspaceId: access.workspaceId, stages: query.stage, limit: query.limit, cursor: query.cursor,
    externalId: query.externalId ? { value: query.externalId, createdBy: caller.accountId } : undefined,
  });
  const productions = rows.map((row) => {
    const production = show(deps, row);
    return { ...production, brief: omitCodeSources(production.brief) };
  });
  return { productions, ...(nextCursor ? { nextCursor } : {}) };
}

export async function detail(deps: ProductionDeps, caller: Caller, id: string) {
  const row = await visibleProduction(deps, caller, id, { write: false, timeline: true });
  const production = show(deps, row);
  return {
    production,
    events: row.events.map(toEvent),
    queue: toQueueStatus(row),
    pitchMarkdown: production.pitch ? pitchMarkdown(production.pitch) : null,
  };
}

export async function monthlyUsage(deps: ProductionDeps, caller: Caller, workspaceId?: string) {
  const access = await targetWorkspace(deps.db, caller, workspaceId, false);
  const workspace = await deps.db.workspace.findUniqueOrThrow({ where: { id: access.workspaceId } });
  return { usage: await usage(deps.db, workspace) };
}

type Action =
  | { kind: 'greenlight'; pitchVersion?: number }
  | { kind: 'comment'; comment: string; pitchVersion?: number }
  | { kind: 'decline'; reason?: string }
  | { kind: 'cancel'; reason?: string };

/** Greenlight, comment, decline or cancel: an Update to the workflow, answered with the production. */
export async function act(deps: ProductionDeps, caller: Caller, id: string, action: Action) {
  const row = await visibleProduction(deps, caller, id, { write: true });
  if (toProduction(row, deps.config.appUrl).terminal) throw new ApiError(409, `The production is already ${row.stage}.`, 'stage');
  const client = deps.temporal();
  const { actor } = caller;
  switch (action.kind) {
    case 'greenlight':
      await updateProduction(client, id, greenlightUpdate, { ...actor, pitchVersion: action.pitchVersion });
      break;
    case 'comment':
      await updateProduction(client, id, commentUpdate, { ...actor, comment: action.comment, pitchVersion: action.pitchVersion });
      break;
    case 'decline':
      await updateProduction(client, id, declineUpdate, { ...actor, reason: action.reason ?? null });
      break;
    case 'cancel':
      await updateProduction(client, id, cancelUpdate, { ...actor, reason: action.reason ?? null });
      break;
  }
  return { production: show(deps, (await findProduction(deps.db, id))!) };
}
