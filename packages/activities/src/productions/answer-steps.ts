import { namedActor } from '@vp/accounts';
import { Brief, DomainError, type Pitch } from '@vp/contracts';
import { Prisma } from '@vp/db';
import { chargeWithin } from '@vp/ledger';
import { applyStep, requirePitchAllowance } from '@vp/productions';
import type { ProductionActivities } from '@vp/workflows/definitions';
import { refundInStep, TAKEN_UP_TO_DELIVERY, type Steps } from './steps.ts';
import { refusable } from './refusals.ts';

/** The answers to a pitch, and the cancel: the steps of the production's Updates. */
export function answerSteps({ db, outcome, announce }: Steps): Pick<ProductionActivities, 'greenlight' | 'recordComment' | 'decline' | 'cancel'> {
  return {
    greenlight: ({ productionId, pitchVersion, projectId, mode, ...ref }) => refusable(async () => {
      const { actor, actorName } = await namedActor(db, ref);
      const { workspace } = await db.production.findUniqueOrThrow({ where: { id: productionId }, select: { workspace: { select: { ownerId: true } } } });
      return outcome(await announce('production.greenlit', {
        productionId, stepKey: `${productionId}:greenlit`, from: ['pitch_ready'],
        event: { kind: 'greenlit', actor, actorName, payload: { stage: 'greenlit', pitchVersion } },
        update: {},
      }, async (tx) => {
        const pitch = await tx.pitchVersion.findUniqueOrThrow({ where: { productionId_version: { productionId, version: pitchVersion } } });
        const amount = (pitch.pitch as Pitch).estimatedCredits;
        const charge = await chargeWithin(tx, { accountId: workspace.ownerId, productionId, amount });
        if (!charge.ok) throw new DomainError('credits', `Greenlighting needs ${amount} credits; the workspace owner has ${charge.balance}.`);
        return {
          payload: { creditsCharged: charge.charged },
          update: {
            stage: 'greenlit', creditsCharged: charge.charged, projectId,
            greenlight: { mode, actor, actorName, at: new Date().toISOString(), pitchVersion },
          },
        };
      }));
    }),

    recordComment: ({ productionId, pitchVersion, comment, ...ref }) => refusable(async () => {
      const { actor, actorName } = await namedActor(db, ref);
      const production = await db.production.findUniqueOrThrow({ where: { id: productionId }, include: { workspace: true } });
      return outcome(await applyStep(db, {
        productionId, stepKey: `${productionId}:comment:${pitchVersion}`, from: ['pitch_ready'],
        event: { kind: 'comment', actor, actorName, payload: { stage: 'writing_pitch', comment, pitchVersion } },
        update: { stage: 'writing_pitch', revisionsLeft: { decrement: 1 } },
        // The next version is a pitch like the first: paid for, and counted against the cap.
      }, (tx) => requirePitchAllowance(tx, production.workspace, Brief.parse(production.brief).format.durationMs)));
    }),

    decline: ({ productionId, reason, ...ref }) => refusable(async () => {
      const { actor, actorName } = await namedActor(db, ref);
      return outcome(await announce('production.declined', {
        productionId, stepKey: `${productionId}:declined`, from: ['queued', 'writing_pitch', 'pitch_ready'],
        event: { kind: 'declined', actor, actorName, payload: { stage: 'declined', ...(reason ? { reason } : {}) } },
        update: { stage: 'declined' },
      }));
    }),

    cancel: ({ productionId, reason, ...ref }) => refusable(async () => {
      const { actor, actorName } = await namedActor(db, ref);
      return outcome(await announce('production.cancelled', {
        productionId, stepKey: `${productionId}:cancelled`, from: TAKEN_UP_TO_DELIVERY,
        event: { kind: 'cancelled', actor, actorName, payload: { stage: 'cancelled', ...(reason ? { reason } : {}) } },
        update: { stage: 'cancelled', queue: Prisma.DbNull },
      }, refundInStep(productionId)));
    }),
  };
}
