import { ActivityFailure, CancellationScope, condition, isCancellation, patched } from '@temporalio/workflow';
import type { ProductionWorkflowInput } from '../definitions.ts';
import type { Activities } from './activities.ts';
import type { acceptUpdates } from './handlers.ts';
import { emailNotice } from './notices.ts';
import { isRefusal, type ProductionState } from './state.ts';
import { settle } from './steps.ts';
import { drawStoryboard } from './storyboard.ts';

/** Pitch e-mails go out from an activity of this workflow (before, the show-pitch step started a workflow of their own). */
export const PITCH_EMAILS_PATCH = 'pitch-emails-from-the-production';

/**
 * The pitch, and its revisions, until an answer (the spec's "a pitch being written" rows): each
 * version is written in the background, free, then shown (`pitch_ready`, or `skipped` when the
 * brief is not worth a video). People are asked by e-mail, unless the production greenlights
 * itself; a comment has the next version written. Ends greenlit, or in a final stage.
 */
export async function pitchPhase(state: ProductionState, input: ProductionWorkflowInput, activities: Activities, updates: ReturnType<typeof acceptUpdates>) {
  const { productionId } = input;
  const { steps, writer } = activities;
  try {
    if ((await steps.startWritingPitch({ productionId })).applied) state.stage = 'writing_pitch';
    while (!state.ended) {
      const version = state.pitchVersion + 1;
      const written = await writer.writePitch({ productionId, version });
      // A decline or cancel may be recording its step: the pitch is shown after it, if at all.
      const shown = await state.lock.runExclusive(async () => {
        if (!written.applied || state.ended) return false;
        // The workflow moves first, then the read model shows the pitch (see Mutex).
        state.pitchVersion = version;
        const to = written.verdict === 'skip' ? 'skipped' : 'pitch_ready';
        state.stage = to;
        await steps.showPitch({ productionId, version }).then(settle(state, to));
        return true;
      }).catch((error: unknown) => {
        unlessRefused(error); // refused: an update ended it first
        return true;
      });
      if (!shown) return;
      if (state.now() !== 'pitch_ready') return;
      const storyboard = drawStoryboard(state, input, version);
      let asked = input.greenlightMode === 'manual';
      if (!asked) {
        await state.lock.runExclusive(() => updates.greenlight({ actor: 'auto' }, 'auto')).catch((error: unknown) => {
          // Not enough credits: the pitch waits for a person, as in manual mode.
          unlessRefused(error);
          asked = true;
        });
      }
      const mailing = asked && patched(PITCH_EMAILS_PATCH) ? emailLinks(state, activities, productionId, version, storyboard?.drawnOrWaited) : null;
      await condition(() => !state.lock.held && state.stage !== 'pitch_ready');
      // Answered: whoever had not been sent the links yet need not be; the stills are not needed.
      mailing?.cancel();
      storyboard?.cancel();
      if (state.now() !== 'writing_pitch') return;
    }
  } catch (error) {
    if (!(error instanceof ActivityFailure) || isCancellation(error)) throw error;
    const failure = 'We could not write a pitch for this brief. Nothing was charged.';
    const failed = await state.lock.runExclusive(async () => {
      if (state.ended || !(await steps.fail({ productionId, error: failure })).applied) return false;
      state.stage = 'failed';
      return true;
    });
    if (failed) emailNotice(state, activities, productionId, 'production_failed');
  }
}

function unlessRefused(error: unknown) {
  if (!isRefusal(error)) throw error;
}

/**
 * Sends a pitch version's links by e-mail in the background: the workflow goes on waiting for an
 * answer, and stops the sending once one comes. A sending that fails for good (a day of a mail
 * server away) leaves the links in the webhook payloads and the pitch on its page.
 */
function emailLinks(state: ProductionState, { mail }: Activities, productionId: string, pitchVersion: number, stills?: () => Promise<unknown>): CancellationScope {
  const scope = new CancellationScope();
  // With its storyboard's stills where they come soon enough (STORYBOARD_WAIT_MS).
  const send = () => mail.emailPitchLinks({ productionId, pitchVersion });
  state.background.push(scope.run(() => (stills ? stills().then(send) : send())).catch(() => {}));
  return scope;
}
