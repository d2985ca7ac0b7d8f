import { defineQuery, defineUpdate, type RetryPolicy } from '@temporalio/workflow';
import type { Delivery, Stage } from '@vp/contracts';
import { PRODUCTION_GONE } from '@vp/contracts/temporal';

/** Who acts: `user:<id>`, `key:<id>`, `email:<address>`, `webhook:<endpointId>`, `auto`, `system`. */
export type ActorRef = { actor: string; actorName: string | null };
/** The service itself, as a timeline's actor (DECISIONS: timeline actors `system`). */
export const SYSTEM_ACTOR: ActorRef = { actor: 'system', actorName: 'Video Production Service' };

export type GreenlightArgs = ActorRef & { pitchVersion?: number };
export type CommentArgs = ActorRef & { comment: string; pitchVersion?: number };
export type DeclineArgs = ActorRef & { reason?: string | null; pitchVersion?: number };
export type CancelArgs = ActorRef & { reason?: string | null };

/**
 * Updates answer the caller with the outcome. A refusal is an ApplicationFailure whose
 * `type` is one of REFUSALS and changes nothing.
 */
export const greenlightUpdate = defineUpdate<void, [GreenlightArgs]>('greenlight');
export const commentUpdate = defineUpdate<void, [CommentArgs]>('comment');
export const declineUpdate = defineUpdate<void, [DeclineArgs]>('decline');
export const cancelUpdate = defineUpdate<void, [CancelArgs]>('cancel');

export type ProductionState = { stage: Stage; pitchVersion: number; revisionsLeft: number };
export const stateQuery = defineQuery<ProductionState>('state');

/** Refusal types, each the `code` of the API error it becomes. */
export const REFUSALS = { stage: 'stage', credits: 'credits', revisions: 'revisions', cap: 'cap' } as const;
export type Refusal = keyof typeof REFUSALS;

export type ProductionWorkflowInput = {
  productionId: string;
  greenlightMode: 'manual' | 'auto';
  revisions: number;
  /** The render farm's task queue (prefixed in tests). */
  renderTaskQueue: string;
  /** How long one database step may take before Temporal retries it elsewhere. */
  stepTimeoutMs: number;
  /** How long a render may go without a heartbeat (a killed machine) before it is retried elsewhere. */
  renderHeartbeatTimeoutMs?: number;
};

export type StepOutcome = { applied: true } | { applied: false; stage: Stage };
export type Refused = { refused: Refusal; message: string };

/** Activities of the productions task queue (implemented in @vp/activities). */
export interface ProductionActivities {
  startWritingPitch(input: { productionId: string }): Promise<StepOutcome>;
  /** Writes the next pitch version (not yet shown: the workflow moves first, then `showPitch`). */
  writePitch(input: { productionId: string; version: number }): Promise<StepOutcome & { verdict?: 'video' | 'skip' }>;
  /** Shows a written pitch in the read model: `pitch_ready` (or `skipped`) and its timeline entry. */
  showPitch(input: { productionId: string; version: number }): Promise<StepOutcome>;
  greenlight(input: ActorRef & { productionId: string; pitchVersion: number; projectId: string; mode: 'manual' | 'auto' }): Promise<StepOutcome | Refused>;
  recordComment(input: ActorRef & { productionId: string; pitchVersion: number; comment: string }): Promise<StepOutcome | Refused>;
  decline(input: ActorRef & { productionId: string; reason: string | null }): Promise<StepOutcome>;
  cancel(input: ActorRef & { productionId: string; reason: string | null }): Promise<StepOutcome>;
  startMaking(input: { productionId: string }): Promise<StepOutcome>;
  deliver(input: { productionId: string; delivery: Delivery }): Promise<StepOutcome>;
  fail(input: { productionId: string; error: string }): Promise<StepOutcome>;
}

/**
 * Retries of a step (a short database transaction run as a local activity): until it passes.
 * Its failures are ours (the database away), and giving up would record a wrong outcome: a shown
 * pitch failed, a made video refunded, a failure never written. All but one: a production that
 * does not exist will not come to exist, and its workflow ends, failed.
 */
export const STEP_RETRY: RetryPolicy = { initialInterval: '1 second', maximumInterval: '10 seconds', nonRetryableErrorTypes: [PRODUCTION_GONE] };

/** Tries of one render before it fails (DECISIONS: "tried 3 times by the render farm"). */
export const RENDER_TRIES = 3;

/**
 * The render farm's activity, on its own task queue. It reports phases by heartbeat
 * (and into the read model), moves the production to `exporting` when it exports,
 * and returns the delivery. Retried 3 times, then the production fails.
 */
export interface RenderFarmActivities {
  /** `exportId`: the delivery's export, the same for every try. */
  makeVideo(input: { productionId: string; projectId: string; exportId: string }): Promise<{ delivery: Delivery }>;
  /** A one-call render: its images become a project, rendered into its export. */
  renderImages(input: { renderId: string }): Promise<void>;
  /** Renders a stored project version again (a re-export from the project page). */
  exportVersion(input: { exportId: string }): Promise<void>;
}

/** Short database steps of the render and export workflows (local activities of the render worker). */
export interface RenderFarmSteps {
  failRender(input: { renderId: string; error: string }): Promise<void>;
  failExport(input: { exportId: string; error: string }): Promise<void>;
  /** Fails the export of a video that was not delivered, finished or not, and removes its files. */
  discardVideo(input: DiscardVideoInput): Promise<void>;
  /** Fails a render that was never started, and removes its images. */
  abandonRender(input: { renderId: string }): Promise<void>;
}

export type DiscardVideoInput = { exportId: string; reason: string };

export type RenderWorkflowInput = { renderId: string; heartbeatTimeoutMs: number };
export type ExportWorkflowInput = { exportId: string; heartbeatTimeoutMs: number };
