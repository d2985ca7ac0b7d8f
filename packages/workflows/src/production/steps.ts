import type { Stage } from '@vp/contracts';
import type { Refused, StepOutcome } from '../definitions.ts';
import { refuse, type ProductionState } from './state.ts';

/**
 * What a step's outcome means for the workflow: the stage `to` when the step applied. A step
 * refused (not enough credits, data the database refuses) or not applied (an update moved the
 * production first) is refused to the caller, and changes nothing.
 */
export function settle(state: ProductionState, to: Stage) {
  return (outcome: StepOutcome | Refused): void => {
    if ('refused' in outcome) refuse(outcome.refused, outcome.message);
    if (!outcome.applied) refuse('stage', `The production is ${outcome.stage}.`);
    state.stage = to;
  };
}
