import {
  Brief, isTerminal, QueueStatus,
  type Delivery, type Pitch, type Production, type ProductionEvent, type Stage,
} from '@vp/contracts';
import type { Production as ProductionRow, ProductionEvent as EventRow, PitchVersion } from '@vp/db';

export type ProductionWithPitch = ProductionRow & { pitches?: PitchVersion[] };

export function productionPageUrl(appUrl: string, productionId: string): string {
  return `${appUrl}/productions/${productionId}`;
}

/** The stored row as the API shows it. `pitch` is the current version when loaded. */
export function toProduction(row: ProductionWithPitch, appUrl: string): Production {
  const current = row.pitches?.find((p) => p.version === row.pitchVersion);
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    stage: row.stage as Stage,
    source: {
      kind: row.sourceKind as Production['source']['kind'],
      externalId: row.externalId,
      origin: (row.origin as Production['source']['origin']) ?? null,
    },
    brief: Brief.parse(row.brief),
    pitch: current ? (current.pitch as Pitch) : null,
    greenlight: (row.greenlight as Production['greenlight']) ?? null,
    greenlightMode: row.greenlightMode as Production['greenlightMode'],
    delivery: (row.delivery as Delivery | null) ?? null,
    projectId: row.projectId,
    creditsCharged: row.creditsCharged,
    revisionsLeft: row.revisionsLeft,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    terminal: isTerminal(row.stage as Stage),
    pageUrl: productionPageUrl(appUrl, row.id),
  };
}

export function toEvent(row: EventRow): ProductionEvent {
  return {
    id: row.id,
    productionId: row.productionId,
    kind: row.kind as ProductionEvent['kind'],
    actor: row.actor,
    actorName: row.actorName,
    payload: row.payload as Record<string, unknown>,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Queue status exists while the video is being made. */
export function toQueueStatus(row: ProductionRow): QueueStatus | null {
  return row.queue ? QueueStatus.parse(row.queue) : null;
}

/**
 * Includes the current pitch version with a production row. The newest stored version may be
 * one not shown yet (being written, or overtaken by a cancel); a version is written only after
 * the one before it was shown, so the current one is among the newest two.
 */
export const withCurrentPitch = { pitches: { orderBy: { version: 'desc' as const }, take: 2 } };
