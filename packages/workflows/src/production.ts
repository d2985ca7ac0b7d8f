import {
  ActivityFailure, allHandlersFinished, ApplicationFailure, CancellationScope, condition, isCancellation, proxyActivities, setHandler, uuid4,
} from '@temporalio/workflow';
import type { Stage } from '@vp/contracts';
import {
  cancelUpdate, commentUpdate, declineUpdate, greenlightUpdate, stateQuery,
  type ActorRef, type ProductionActivities, type ProductionWorkflowInput, type Refusal, type RenderFarmActivities,
  type StepOutcome,
} from './definitions.ts';

const TERMINAL: readonly Stage[] = ['delivered', 'skipped', 'declined', 'cancelled', 'failed'];
const BEFORE_GREENLIGHT: readonly Stage[] = ['queued', 'writing_pitch', 'pitch_ready'];

function refuse(type: Refusal, message: string): never {
  throw ApplicationFailure.create({ type, message, nonRetryable: true });
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

  const retry = { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 5 };
  const steps = proxyActivities<ProductionActivities>({ startToCloseTimeout: input.stepTimeoutMs, retry });
  // Writing a pitch may call a language model: it gets longer, and its own retries.
  const writer = proxyActivities<Pick<ProductionActivities, 'writePitch'>>({ startToCloseTimeout: '5 minutes', retry });
  const renderFarm = proxyActivities<RenderFarmActivities>({
    taskQueue: input.renderTaskQueue,
    startToCloseTimeout: '30 minutes',
    heartbeatTimeout: '2 minutes',
    retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumAttempts: 3 },
  });

  /** Runs an action alone: concurrent updates see `busy` in their validators. */
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

  function requireOpenPitch(pitchVersion?: number) {
    if (state.busy || state.stage !== 'pitch_ready') refuse('stage', `The pitch is not awaiting an answer (stage ${state.stage}).`);
    if (pitchVersion !== undefined && pitchVersion !== state.pitchVersion) {
      refuse('stage', `Pitch version ${pitchVersion} is out of date; the current version is ${state.pitchVersion}.`);
    }
  }

  async function greenlight(actor: ActorRef, mode: 'manual' | 'auto') {
    projectId ??= uuid4();
    const id = projectId;
    await exclusive(() => steps.greenlight({ productionId, pitchVersion: state.pitchVersion, projectId: id, mode, ...actor }), 'greenlit');
  }

  setHandler(stateQuery, () => ({ stage: state.stage, pitchVersion: state.pitchVersion, revisionsLeft: state.revisionsLeft }));

  setHandler(greenlightUpdate, ({ pitchVersion: _version, ...actor }) => greenlight(actor, 'manual'), {
    validator: ({ pitchVersion }) => requireOpenPitch(pitchVersion),
  });

  setHandler(
    commentUpdate,
    async ({ comment, pitchVersion: _version, ...actor }) => {
      await exclusive(() => steps.recordComment({ productionId, pitchVersion: state.pitchVersion, comment, ...actor }), 'writing_pitch');
      state.revisionsLeft -= 1;
    },
    {
      validator: ({ pitchVersion }) => {
        requireOpenPitch(pitchVersion);
        if (state.revisionsLeft <= 0) refuse('revisions', 'No revisions are left for this production.');
      },
    },
  );

  setHandler(declineUpdate, ({ reason, pitchVersion: _version, ...actor }) =>
    exclusive(() => steps.decline({ productionId, reason: reason ?? null, ...actor }), 'declined'), {
    validator: ({ pitchVersion }) => {
      if (state.busy || !BEFORE_GREENLIGHT.includes(state.stage)) refuse('stage', `The production is ${state.stage}; it can no longer be declined.`);
      if (pitchVersion !== undefined && pitchVersion !== state.pitchVersion) refuse('stage', `Pitch version ${pitchVersion} is out of date.`);
    },
  });

  setHandler(
    cancelUpdate,
    async ({ reason, ...actor }) => {
      making?.cancel();
      await exclusive(() => steps.cancel({ productionId, reason: reason ?? null, ...actor }), 'cancelled');
    },
    { validator: (_args) => { if (TERMINAL.includes(state.stage)) refuse('stage', `The production is already ${state.stage}.`); } },
  );

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
        if (!written.applied) return;
        state.pitchVersion = version;
        state.stage = written.verdict === 'skip' ? 'skipped' : 'pitch_ready';
        if (state.stage === 'skipped') return;
        if (input.greenlightMode === 'auto') {
          await greenlight({ actor: 'auto', actorName: 'Auto-greenlight' }, 'auto').catch((error: unknown) => {
            // Not enough credits: the pitch waits for a person, as in manual mode.
            if (!(error instanceof ApplicationFailure)) throw error;
          });
        }
        await condition(() => !state.busy && state.stage !== 'pitch_ready');
        if (stage() !== 'writing_pitch') break;
      }
    } catch (error) {
      if (!(error instanceof ActivityFailure)) throw error;
      await condition(() => !state.busy);
      const failure = 'We could not write a pitch for this brief. Nothing was charged.';
      if (!ended() && (await steps.fail({ productionId, error: failure })).applied) state.stage = 'failed';
      return;
    }
    if (stage() !== 'greenlit') return;

    // ── The video ───────────────────────────────────────────────────────
    await steps.startMaking({ productionId });
    if (ended()) return;
    state.stage = 'making';
    try {
      making = new CancellationScope();
      const id = projectId as string;
      const { delivery } = await making.run(() => renderFarm.makeVideo({ productionId, projectId: id }));
      making = null;
      if ((await steps.deliver({ productionId, delivery })).applied) state.stage = 'delivered';
    } catch (error) {
      if (isCancellation(error)) {
        return; // the cancel update records the outcome and the refund
      }
      if (!(error instanceof ActivityFailure)) throw error;
      await condition(() => !state.busy);
      if (!ended() && (await steps.fail({ productionId, error: readableRenderError(error) })).applied) state.stage = 'failed';
    }
  }

  await run();
  // An update may still be recording its outcome; let it finish before the workflow ends.
  await condition(() => !state.busy && allHandlersFinished());
  return state.stage;
}

/** A person's reason, never the render machine's diagnostics. */
function readableRenderError(error: ActivityFailure): string {
  const cause = error.cause;
  if (cause instanceof ApplicationFailure && cause.type === 'MediaError') return `A media file could not be used: ${cause.message}`;
  return 'The video could not be made after 3 tries. Your credits were refunded.';
}
