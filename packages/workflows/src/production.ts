import {
  ActivityFailure, allHandlersFinished, ApplicationFailure, CancellationScope, condition, isCancellation, ParentClosePolicy, proxyActivities, proxyLocalActivities,
  setHandler, startChild, uuid4,
} from '@temporalio/workflow';
import type { Stage } from '@vp/contracts';
import { workflowIds } from '@vp/contracts/temporal';
import { discardVideoWorkflow } from './discard-video.ts';
import {
  cancelUpdate, commentUpdate, declineUpdate, greenlightUpdate, RENDER_TRIES, REFUSALS, stateQuery, STEP_RETRY, SYSTEM_ACTOR,
  type ActorRef, type CancelArgs, type CommentArgs, type DeclineArgs, type GreenlightArgs, type ProductionActivities, type ProductionWorkflowInput, type Refusal, type RenderFarmActivities,
  type StepOutcome,
} from './definitions.ts';
import { renderFailure } from './render-farm.ts';

const TERMINAL: readonly Stage[] = ['delivered', 'skipped', 'declined', 'cancelled', 'failed'];
const OPERATOR_CANCEL_REASON = 'Cancelled by the service\'s operators.';
const BEFORE_GREENLIGHT: readonly Stage[] = ['queued', 'writing_pitch', 'pitch_ready'];

function refuse(type: Refusal, message: string): never {
  throw ApplicationFailure.create({ type, message, nonRetryable: true });
}

/** A refusal from `refuse`. A local activity that fails for good is an ApplicationFailure too, of another type. */
function isRefusal(error: unknown): boolean {
  return error instanceof ApplicationFailure && Object.hasOwn(REFUSALS, error.type ?? '');
}

/**
 * One production, from brief to delivery. The workflow's state is the authority for what
 * may happen next; every change is written to the read model by an idempotent activity.
 */
export async function productionWorkflow(input: ProductionWorkflowInput): Promise<Stage> {
  const { productionId } = input;
  const state = { stage: 'queued' as Stage, pitchVersion: 0, revisionsLeft: input.revisions, busy: false };
  let projectId = null as string | null;
  let making = null as CancellationScope | null;
  /** The video's export, once making it started; and why it is discarded should it not be delivered. */
  let video = null as { exportId: string; undelivered: string } | null;
  /** Cancelled through Temporal (an operator) once this says so: see the end of the workflow. */
  const root = CancellationScope.current();

  // Steps are short database transactions: local activities, run by the worker that runs the
  // workflow, without a round trip through a task queue for each stage change.
  const steps = proxyLocalActivities<ProductionActivities>({ startToCloseTimeout: input.stepTimeoutMs, retry: STEP_RETRY });
  // Writing a pitch may call a language model: it gets longer, and tries that end ("We could not write a pitch").
  const writer = proxyActivities<Pick<ProductionActivities, 'writePitch'>>({
    startToCloseTimeout: '5 minutes',
    retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 5 },
  });
  const renderFarm = proxyActivities<RenderFarmActivities>({
    taskQueue: input.renderTaskQueue,
    startToCloseTimeout: '30 minutes',
    heartbeatTimeout: input.renderHeartbeatTimeoutMs ?? '2 minutes',
    retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumAttempts: RENDER_TRIES },
  });

  /**
   * Runs a step alone. The workflow's state always leads the read model: what a client has read
   * there, the workflow already accepts. An update that arrives while a step is writing waits
   * for it (`settled`), then checks again, since the state may have moved meanwhile.
   */
  async function exclusive(action: () => Promise<StepOutcome | { refused: Refusal; message: string }>, to: Stage) {
    state.busy = true;
    try {
      const outcome = await action();
      if ('refused' in outcome) refuse(outcome.refused, outcome.message);
      if (!outcome.applied) refuse('stage', `The production is ${outcome.stage}.`);
      state.stage = to;
    } finally {
      state.busy = false;
    }
  }

  /**
   * An update's handler: after any step in flight, the validator's check again, then the action.
   * Not cancelled with the workflow: a step it began is finished, and its caller told the truth.
   */
  function afterSteps<A>(check: (args: A) => void, action: (args: A) => Promise<void>) {
    return (args: A) => CancellationScope.nonCancellable(async () => {
      // Handlers woken together take turns: whoever resumes first may already hold the step.
      do await condition(() => !state.busy);
      while (state.busy);
      check(args);
      await action(args);
    });
  }

  /** Once the workflow is cancelled through Temporal, the production is being cancelled: nothing else is taken. */
  function requireNotStopping() {
    if (root.consideredCancelled) refuse('stage', 'The production is being cancelled by the service\'s operators.');
  }

  function requireOpenPitch(pitchVersion?: number) {
    requireNotStopping();
    if (state.stage !== 'pitch_ready') refuse('stage', `The pitch is not awaiting an answer (stage ${state.stage}).`);
    if (pitchVersion !== undefined && pitchVersion !== state.pitchVersion) {
      refuse('stage', `Pitch version ${pitchVersion} is out of date; the current version is ${state.pitchVersion}.`);
    }
  }

  const canGreenlight = ({ pitchVersion }: { pitchVersion?: number }) => requireOpenPitch(pitchVersion);
  const canComment = ({ pitchVersion }: { pitchVersion?: number }) => {
    requireOpenPitch(pitchVersion);
    if (state.revisionsLeft <= 0) refuse('revisions', 'No revisions are left for this production.');
  };
  const canDecline = ({ pitchVersion }: { pitchVersion?: number }) => {
    // A decline bound to a version (a link's) answers that pitch, so it must still await an answer.
    if (pitchVersion !== undefined) return requireOpenPitch(pitchVersion);
    requireNotStopping();
    if (!BEFORE_GREENLIGHT.includes(state.stage)) refuse('stage', `The production is ${state.stage}; it can no longer be declined.`);
  };
  const canCancel = (_args: CancelArgs) => {
    requireNotStopping();
    if (TERMINAL.includes(state.stage)) refuse('stage', `The production is already ${state.stage}.`);
  };

  async function greenlight(actor: ActorRef, mode: 'manual' | 'auto') {
    projectId ??= uuid4();
    const id = projectId;
    await exclusive(() => steps.greenlight({ productionId, pitchVersion: state.pitchVersion, projectId: id, mode, ...actor }), 'greenlit');
  }

  setHandler(stateQuery, () => ({ stage: state.stage, pitchVersion: state.pitchVersion, revisionsLeft: state.revisionsLeft }));

  setHandler(greenlightUpdate, afterSteps<GreenlightArgs>(canGreenlight, ({ pitchVersion: _version, ...actor }) => greenlight(actor, 'manual')), {
    validator: canGreenlight,
  });

  setHandler(commentUpdate, afterSteps<CommentArgs>(canComment, async ({ comment, pitchVersion: _version, ...actor }) => {
    await exclusive(() => steps.recordComment({ productionId, pitchVersion: state.pitchVersion, comment, ...actor }), 'writing_pitch');
    state.revisionsLeft -= 1;
  }), { validator: canComment });

  setHandler(declineUpdate, afterSteps<DeclineArgs>(canDecline, ({ reason, pitchVersion: _version, ...actor }) =>
    exclusive(() => steps.decline({ productionId, reason: reason ?? null, ...actor }), 'declined')), { validator: canDecline });

  setHandler(cancelUpdate, afterSteps<CancelArgs>(canCancel, async ({ reason, ...actor }) => {
    making?.cancel();
    await exclusive(() => steps.cancel({ productionId, reason: reason ?? null, ...actor }), 'cancelled');
    // The video may have been started while the cancel was recorded (the step that starts it
    // runs beside this one): it is stopped too.
    making?.cancel();
  }), { validator: canCancel });

  const ended = () => TERMINAL.includes(state.stage);
  const stage = (): Stage => state.stage; // read after awaits, when updates may have moved it

  /** Drives the stages; update handlers move the stage too, so it is re-read after every await. */
  async function run(): Promise<void> {
    // ── The pitch, and its revisions, until an answer ───────────────────
    try {
      if ((await steps.startWritingPitch({ productionId })).applied) state.stage = 'writing_pitch';
      while (!ended()) {
        const version = state.pitchVersion + 1;
        const written = await writer.writePitch({ productionId, version });
        // A decline or cancel may be recording its step: the pitch is shown after it, if at all.
        do await condition(() => !state.busy);
        while (state.busy); // woken beside a handler that took the step first
        if (!written.applied || ended()) return;
        // The workflow moves first, then the read model shows the pitch (see `exclusive`).
        state.pitchVersion = version;
        const shown = written.verdict === 'skip' ? 'skipped' : 'pitch_ready';
        await exclusive(async () => {
          state.stage = shown;
          return steps.showPitch({ productionId, version });
        }, shown).catch((error: unknown) => {
          if (!isRefusal(error)) throw error; // refused: an update ended it first
        });
        if (stage() !== 'pitch_ready') return;
        if (input.greenlightMode === 'auto') {
          await greenlight({ actor: 'auto', actorName: 'Auto-greenlight' }, 'auto').catch((error: unknown) => {
            // Not enough credits: the pitch waits for a person, as in manual mode.
            if (!isRefusal(error)) throw error;
          });
        }
        await condition(() => !state.busy && state.stage !== 'pitch_ready');
        if (stage() !== 'writing_pitch') break;
      }
    } catch (error) {
      if (!(error instanceof ActivityFailure) || isCancellation(error)) throw error;
      do await condition(() => !state.busy);
      while (state.busy);
      const failure = 'We could not write a pitch for this brief. Nothing was charged.';
      if (!ended() && (await steps.fail({ productionId, error: failure })).applied) state.stage = 'failed';
      return;
    }
    if (stage() !== 'greenlit') return;

    // ── The video ───────────────────────────────────────────────────────
    // Not applied: a cancel recorded first; its handler may not have resumed to say so yet.
    if (!(await steps.startMaking({ productionId })).applied || ended()) return;
    state.stage = 'making';
    // Random, as the share address it names must not follow from the production's id.
    const exportId = uuid4();
    video = { exportId, undelivered: 'The production was cancelled.' };
    try {
      making = new CancellationScope();
      const id = projectId as string;
      const { delivery } = await making.run(() => renderFarm.makeVideo({ productionId, projectId: id, exportId }));
      making = null;
      if ((await steps.deliver({ productionId, delivery })).applied) {
        state.stage = 'delivered';
        return;
      }
      // Not applied: cancelled as the video was finished.
    } catch (error) {
      // Cancelled: the cancel update records the outcome and the refund.
      if (!isCancellation(error)) {
        if (!(error instanceof ActivityFailure)) throw error;
        video.undelivered = 'The video could not be made.';
        do await condition(() => !state.busy);
        while (state.busy);
        if (!ended() && (await steps.fail({ productionId, error: renderFailure(error, { medium: 'A media file', then: 'Your credits were refunded.' }) })).applied) state.stage = 'failed';
      }
    }
  }

  /** The production as the API's cancel leaves it, refund and all: for a workflow cancelled through Temporal. */
  async function cancelForTheOperator() {
    do await condition(() => !state.busy);
    while (state.busy);
    // Asked even when the workflow holds an ending: a stage it set ahead of its step (skipped)
    // may not have been written, the step cut off by the cancel.
    const outcome = await steps.cancel({ productionId, reason: OPERATOR_CANCEL_REASON, ...SYSTEM_ACTOR });
    // Not applied: the production ended first, delivered perhaps by a step whose answer the cancel cut off.
    state.stage = outcome.applied ? 'cancelled' : outcome.stage;
  }

  try {
    await run();
  } catch (error) {
    if (!isCancellation(error)) throw error;
  }
  // Cancelled through Temporal (an operator, not the API): the production must not stay charged
  // and unfinished, so it is cancelled as the API would. What is left runs whatever the cancel.
  const stopped = root.consideredCancelled;
  await CancellationScope.nonCancellable(async () => {
    if (stopped) await cancelForTheOperator();
    // Not delivered: nothing of the video may stay, whatever its last try left (one killed after
    // its upload, or one that finished as the production was cancelled).
    if (video && state.stage !== 'delivered') {
      await startChild(discardVideoWorkflow, {
        workflowId: workflowIds.discardVideo(video.exportId), taskQueue: input.renderTaskQueue,
        args: [{ exportId: video.exportId, reason: video.undelivered }], parentClosePolicy: ParentClosePolicy.ABANDON,
      });
    }
    // An update may still be recording its outcome; let it finish before the workflow ends.
    await condition(() => !state.busy && allHandlersFinished());
  });
  return state.stage;
}
