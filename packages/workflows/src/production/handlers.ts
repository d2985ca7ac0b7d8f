import { CancellationScope, setHandler, uuid4 } from '@temporalio/workflow';
import {
  cancelUpdate, commentUpdate, declineUpdate, greenlightUpdate, stateQuery,
  type ActorRef, type CancelArgs, type CommentArgs, type DeclineArgs, type GreenlightArgs,
} from '../definitions.ts';
import type { Activities } from './activities.ts';
import { BEFORE_GREENLIGHT, refuse, TERMINAL, type ProductionState } from './state.ts';
import { settle } from './steps.ts';

/**
 * The Updates a production takes, each checked against the spec's table of production stages
 * ("Production stages"): by its validator when it arrives, and again once the step before it
 * has finished, since the state may have moved meanwhile. An Update is not cancelled with the
 * workflow: a step it began is finished, and its caller told the truth.
 */
export function acceptUpdates(state: ProductionState, productionId: string, { steps }: Activities) {
  const settled = (to: Parameters<typeof settle>[1]) => settle(state, to);
  /** `pitch_ready`, and the version the caller read, when it names one. */
  function requireOpenPitch(pitchVersion?: number) {
    requireNotStopping();
    if (state.stage !== 'pitch_ready') refuse('stage', `The pitch is not awaiting an answer (stage ${state.stage}).`);
    if (pitchVersion !== undefined && pitchVersion !== state.pitchVersion) {
      refuse('stage', `Pitch version ${pitchVersion} is out of date; the current version is ${state.pitchVersion}.`);
    }
  }
  function requireNotStopping() {
    if (state.stopping) refuse('stage', 'The production is being cancelled by the service\'s operators.');
  }

  // pitch_ready → greenlit (greenlight), when pitchVersion, if passed, is the current one.
  const canGreenlight = ({ pitchVersion }: { pitchVersion?: number }) => requireOpenPitch(pitchVersion);
  // A pitch awaiting an answer → the next pitch is written (comments), while revisions are left.
  const canComment = ({ pitchVersion }: { pitchVersion?: number }) => {
    requireOpenPitch(pitchVersion);
    if (state.revisionsLeft <= 0) refuse('revisions', 'No revisions are left for this production.');
  };
  // A pitch awaiting an answer → declined, not once greenlit. A decline bound to a version (a
  // link's) answers that pitch, so it must still await an answer.
  const canDecline = ({ pitchVersion }: { pitchVersion?: number }) => {
    if (pitchVersion !== undefined) return requireOpenPitch(pitchVersion);
    requireNotStopping();
    if (!BEFORE_GREENLIGHT.includes(state.stage)) refuse('stage', `The production is ${state.stage}; it can no longer be declined.`);
  };
  // Any stage but a final one → cancelled.
  const canCancel = (_args: CancelArgs) => {
    requireNotStopping();
    if (TERMINAL.includes(state.stage)) refuse('stage', `The production is already ${state.stage}.`);
  };

  /** An Update's handler: its check again once no step runs, then its step. */
  const afterSteps = <A>(check: (args: A) => void, step: (args: A) => Promise<void>) =>
    (args: A) => CancellationScope.nonCancellable(() => state.lock.runExclusive(() => {
      check(args);
      return step(args);
    }));

  setHandler(stateQuery, () => ({ stage: state.stage, pitchVersion: state.pitchVersion, revisionsLeft: state.revisionsLeft }));

  setHandler(greenlightUpdate, afterSteps<GreenlightArgs>(canGreenlight, ({ pitchVersion: _version, ...actor }) => greenlight(actor, 'manual')), {
    validator: canGreenlight,
  });

  setHandler(commentUpdate, afterSteps<CommentArgs>(canComment, async ({ comment, pitchVersion: _version, ...actor }) => {
    await steps.recordComment({ productionId, pitchVersion: state.pitchVersion, comment, ...actor }).then(settled('writing_pitch'));
    state.revisionsLeft -= 1;
  }), { validator: canComment });

  setHandler(declineUpdate, afterSteps<DeclineArgs>(canDecline, ({ reason, pitchVersion: _version, ...actor }) =>
    steps.decline({ productionId, reason: reason ?? null, ...actor }).then(settled('declined'))), { validator: canDecline });

  setHandler(cancelUpdate, afterSteps<CancelArgs>(canCancel, async ({ reason, ...actor }) => {
    state.making?.cancel();
    await steps.cancel({ productionId, reason: reason ?? null, ...actor }).then(settled('cancelled'));
    // The video may have been started while the cancel was recorded (the step that starts it
    // runs beside this one): it is stopped too.
    state.making?.cancel();
  }), { validator: canCancel });

  /**
   * pitch_ready → greenlit: credits charged once (the step refuses without them), the project's id
   * chosen. Called holding the lock.
   */
  function greenlight(actor: ActorRef, mode: 'manual' | 'auto') {
    state.projectId ??= uuid4();
    const projectId = state.projectId;
    return steps.greenlight({ productionId, pitchVersion: state.pitchVersion, projectId, mode, ...actor }).then(settled('greenlit'));
  }

  return { greenlight };
}
