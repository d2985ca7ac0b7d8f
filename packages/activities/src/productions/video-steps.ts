import { SYSTEM_ACTOR } from '@vp/accounts';
import type { Phase } from '@vp/contracts';
import { Prisma } from '@vp/db';
import { deliveryOf } from '@vp/projects';
import { applyStep } from '@vp/productions';
import type { ProductionActivities } from '@vp/workflows/definitions';
import { refundInStep, TAKEN_UP_TO_DELIVERY, type Steps } from './steps.ts';

const IN_WORDS: Record<Phase, string> = {
  preparing: 'Preparing: fetching the media and recording the voiceover.',
  planning: 'Planning the shots, their timing and transitions.',
  building: 'Building the video frame by frame.',
  reviewing: 'Reviewing the video: length, size, streams and every shot.',
  polishing: 'Polishing: mixing and levelling the sound.',
  exporting: 'Exporting the finished video.',
};

/** The video's steps: making starts, each report of the render farm, delivery, failure. */
export function videoSteps({ db, outcome, announce }: Steps, appUrl: string): Pick<ProductionActivities, 'startMaking' | 'recordProgress' | 'deliver' | 'fail'> {
  return {
    async startMaking({ productionId }) {
      return outcome(await announce('production.progress', {
        productionId, stepKey: `${productionId}:making`, from: ['greenlit'],
        event: { kind: 'stage', ...SYSTEM_ACTOR, payload: { stage: 'making' } },
        update: { stage: 'making', queue: { phase: null, startedAt: null, retrying: false, lastProgress: null } },
      }));
    },

    /**
     * A try's report: the stage move the workflow decided (step key per try and stage), then the
     * queue status and one note (step key per try and phase, or `retry`), published as
     * `production.progress`. Each is written once, however often the step runs.
     */
    async recordProgress({ productionId, attempt, maxAttempts, phase, startedAt, stage }) {
      if (stage) {
        const moved = await applyStep(db, {
          productionId, stepKey: `${productionId}:${stage}:${attempt}`, from: [stage === 'exporting' ? 'making' : 'exporting'],
          event: { kind: 'stage', ...SYSTEM_ACTOR, payload: { stage } },
          update: { stage },
        });
        if (!moved.applied) return outcome(moved);
      }
      const retrying = attempt > 1;
      const queue = phase
        ? { phase, startedAt, retrying, lastProgress: retrying ? `${IN_WORDS[phase]} (Try ${attempt} of ${maxAttempts}.)` : IN_WORDS[phase] }
        : { phase: null, startedAt: null, retrying: true, lastProgress: `Try ${attempt} of ${maxAttempts} did not succeed; the next starts in a few seconds.` };
      return outcome(await announce('production.progress', {
        productionId, stepKey: `${productionId}:render:${attempt}:${phase ?? 'retry'}`, from: ['making', 'exporting'],
        // The spec's payload of a progress note is the phase moved to: none, between tries. The queue status says why.
        event: { kind: 'note', ...SYSTEM_ACTOR, payload: { phase } },
        update: { queue },
      }));
    },

    async deliver({ productionId, exportId, delivery: recorded }) {
      // Histories before the video's export alone was carried hold the delivery itself.
      const delivery = exportId ? await deliveryOf(db, appUrl, exportId) : recorded;
      return outcome(await announce('production.delivered', {
        productionId, stepKey: `${productionId}:delivered`, from: ['making', 'exporting'],
        event: { kind: 'delivered', ...SYSTEM_ACTOR, payload: { stage: 'delivered' } },
        update: { stage: 'delivered', delivery: delivery as Prisma.InputJsonValue, queue: Prisma.DbNull },
      }));
    },

    async fail({ productionId, error }) {
      return outcome(await announce('production.failed', {
        productionId, stepKey: `${productionId}:failed`, from: TAKEN_UP_TO_DELIVERY,
        event: { kind: 'failed', ...SYSTEM_ACTOR, payload: { stage: 'failed', error } },
        update: { stage: 'failed', error, queue: Prisma.DbNull },
      }, refundInStep(productionId)));
    },
  };
}
