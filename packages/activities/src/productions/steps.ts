import type { Stage, SubscribableEventType } from '@vp/contracts';
import type { Db } from '@vp/db';
import { refundWithin } from '@vp/ledger';
import { applyStep, type Step, type StepResult, type StepWork } from '@vp/productions';
import type { StepOutcome } from '@vp/workflows/definitions';
import type { PitchWriter } from '@vp/pitch';
import type { EventPublisher } from '../publish.ts';

/** Every stage from the first to the one before delivery: a cancel or a failure is taken in any. */
export const TAKEN_UP_TO_DELIVERY: readonly Stage[] = ['queued', 'writing_pitch', 'pitch_ready', 'greenlit', 'making', 'exporting'];

/** What the production's steps share: the database, and how a step's event is announced. */
export type Steps = {
  db: Db;
  writer: PitchWriter;
  outcome: (result: StepResult) => StepOutcome;
  /** A step the spec announces: its event is recorded with the change, and sent once that commits. */
  announce: (type: SubscribableEventType, step: Step, work?: StepWork) => Promise<StepResult>;
};

export function stepsOf(db: Db, writer: PitchWriter, events?: EventPublisher): Steps {
  return {
    db,
    writer,
    outcome: (result) => (result.applied ? { applied: true } : { applied: false, stage: result.stage }),
    async announce(type, step, work) {
      const result = await applyStep(db, events ? { ...step, after: events.recorder(type, step) } : step, work);
      if (result.applied) await events?.dispatch(step);
      return result;
    },
  };
}

/** A charge made before a final step is given back in full, in the same transaction. */
export function refundInStep(productionId: string): StepWork {
  return async (tx) => {
    const creditsRefunded = await refundWithin(tx, productionId);
    return creditsRefunded ? { payload: { creditsRefunded } } : undefined;
  };
}
