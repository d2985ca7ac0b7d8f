import { defineQuery, defineSignal, defineUpdate, type RetryPolicy } from '@temporalio/workflow';
import type { ActorId, Phase, Stage } from '@vp/contracts';
import { PRODUCTION_GONE } from '@vp/contracts/temporal';

/**
 * Who acts, as an Update carries it: an id (ActorId), which the step that records the action
 * resolves into the timeline's actor and a name. Histories written before ids alone were
 * carried hold the resolved actor and its name (`actorName`); steps accept both.
 */
export type ActorRef = { actor: ActorId | string; actorName?: string | null };

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

/**
 * A try of the render farm reports a phase it reached (`phase: null`: the try failed and another
 * follows). The production workflow records it; a report from a try older than one already
 * heard from is dropped.
 */
export type RenderProgress = { attempt: number; phase: Phase | null; startedAt: string };
export const renderProgressSignal = defineSignal<[RenderProgress]>('renderProgress');

/**
 * Refusal types, each the `code` of the domain error it becomes. `invalid`: the database refused
 * the data of an action (text it cannot store): nothing changed, and the next valid action is taken.
 */
export const REFUSALS = { stage: 'stage', credits: 'credits', revisions: 'revisions', cap: 'cap', invalid: 'invalid' } as const;
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
  /** Where storyboard stills are drawn; absent in workflows started before (then beside the render queue). */
  storyboardTaskQueue?: string;
  /** How long a pitch's e-mail waits for its stills before it goes without them. */
  storyboardWaitMs?: number;
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
  decline(input: ActorRef & { productionId: string; reason: string | null }): Promise<StepOutcome | Refused>;
  cancel(input: ActorRef & { productionId: string; reason: string | null }): Promise<StepOutcome | Refused>;
  startMaking(input: { productionId: string }): Promise<StepOutcome>;
  /**
   * A render try's report: the queue status and a timeline note (published as
   * `production.progress`), and the stage move the workflow decided, if any.
   */
  recordProgress(input: { productionId: string; attempt: number; maxAttempts: number; phase: Phase | null; startedAt: string; stage: 'making' | 'exporting' | null }): Promise<StepOutcome>;
  /** Delivers the video of export `exportId` (histories before it carried the delivery itself). */
  deliver(input: { productionId: string; exportId?: string; delivery?: unknown }): Promise<StepOutcome>;
  fail(input: { productionId: string; error: string }): Promise<StepOutcome>;
  /**
   * E-mails a pitch version's greenlight links to each owner and editor not yet sent them; sends
   * nothing once the pitch was answered. Reports each recipient by heartbeat.
   */
  emailPitchLinks(input: { productionId: string; pitchVersion: number }): Promise<{ sent: number }>;
  /**
   * Tells each owner and editor who wants it that the production was delivered or failed; once
   * per recipient, however often it runs. Reports each recipient by heartbeat.
   */
  emailNotice(input: { productionId: string; kind: 'video_delivered' | 'production_failed' }): Promise<{ sent: number }>;
}

/**
 * Retries of a step (a short database transaction run as a local activity): until it passes.
 * Its failures are ours (the database away), and giving up would record a wrong outcome: a shown
 * pitch failed, a made video refunded, a failure never written. All but two: a production that
 * does not exist will not come to exist, and its workflow ends, failed; and data the database
 * refuses (a step's activity fails it for good, as a refusal) will be refused again.
 */
export const STEP_RETRY: RetryPolicy = { initialInterval: '1 second', maximumInterval: '10 seconds', nonRetryableErrorTypes: [PRODUCTION_GONE] };

/** Tries of one render before it fails (DECISIONS: "tried 3 times by the render farm"). */
export const RENDER_TRIES = 3;

/**
 * The render farm's activity, on its own task queue. It reports phases by heartbeat and to the
 * production's workflow (`renderProgressSignal`), which records them. Retried 3 times, then the
 * production fails.
 */
export interface RenderFarmActivities {
  /** `exportId`: the delivery's export, the same for every try. Histories before it returned the delivery. */
  makeVideo(input: { productionId: string; projectId: string; exportId: string }): Promise<unknown>;
  /** A one-call render: its images become a project, rendered into its export. */
  renderImages(input: { renderId: string }): Promise<void>;
  /** Renders a stored project version again (a re-export from the project page). */
  exportVersion(input: { exportId: string }): Promise<void>;
}

/** The storyboard's activity, on its own task queue (render workers take it, apart from the videos). */
export interface StoryboardActivities {
  /** Draws one still per shot of a pitch version and gives each shot its `previewUrl`; drawn once. */
  drawStoryboard(input: { productionId: string; pitchVersion: number }): Promise<{ stills: number }>;
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
