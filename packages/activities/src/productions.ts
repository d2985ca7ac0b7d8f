import { ApplicationFailure } from '@temporalio/common';
import { Brief, creditsFor, type Pitch, type Stage, type SubscribableEventType } from '@vp/contracts';
import { Prisma, type Db } from '@vp/db';
import { balance, chargeWithin, refundWithin } from '@vp/ledger';
import type { PitchWriter } from '@vp/pitch';
import { applyStep, pitchesUsed, type Step, type StepWork } from '@vp/productions';
import { SYSTEM_ACTOR, type ProductionActivities, type Refused, type StepOutcome } from '@vp/workflows/definitions';
import type { EventPublisher } from './publish.ts';

const NOT_STARTED = ['queued', 'writing_pitch', 'pitch_ready', 'greenlit', 'making', 'exporting'] as const;

/** Without `events`, stage changes publish nothing (tests of the production workflow alone). */
export type ProductionActivityDeps = { db: Db; writer: PitchWriter; events?: EventPublisher };

/** Activities of the production workflow. Each is idempotent through its step key. */
export function createProductionActivities({ db, writer, events }: ProductionActivityDeps): ProductionActivities {
  const outcome = (result: Awaited<ReturnType<typeof applyStep>>): StepOutcome =>
    result.applied ? { applied: true } : { applied: false, stage: result.stage };

  /** A step the spec announces: its event is recorded with the change, and sent once that commits. */
  async function announce(type: SubscribableEventType, step: Step, work?: StepWork) {
    const result = await applyStep(db, events ? { ...step, after: events.recorder(type, step) } : step, work);
    if (result.applied) await events?.dispatch(type, step);
    return result;
  }

  async function owner(productionId: string) {
    const row = await db.production.findUniqueOrThrow({ where: { id: productionId }, include: { workspace: true } });
    return { production: row, ownerId: row.workspace.ownerId, pitchCap: row.workspace.pitchCap };
  }

  return {
    async startWritingPitch({ productionId }) {
      return outcome(await applyStep(db, {
        productionId, stepKey: `${productionId}:writing:1`, from: ['queued'],
        event: { kind: 'stage', ...SYSTEM_ACTOR, payload: { stage: 'writing_pitch' } },
        update: { stage: 'writing_pitch' },
      }));
    },

    async writePitch({ productionId, version }) {
      const row = await db.production.findUniqueOrThrow({
        where: { id: productionId },
        include: { pitches: { where: { version: { in: [version - 1, version] } } }, events: { where: { kind: 'comment' }, orderBy: { createdAt: 'asc' } } },
      });
      if (row.stage !== 'writing_pitch') return { applied: false, stage: row.stage as Stage };
      // A retry after a crash keeps what was written (a language model would not write it twice alike).
      const written = row.pitches.find((p) => p.version === version);
      if (written) return { applied: true, verdict: (written.pitch as Pitch).verdict };
      const previous = (row.pitches.find((p) => p.version === version - 1)?.pitch as Pitch | undefined) ?? null;
      const comments = row.events.map((e) => e.payload as { comment: string; pitchVersion: number });
      let pitch: Pitch;
      try {
        pitch = await writer.write({ brief: Brief.parse(row.brief), version, previous, comments });
      } catch (error) {
        // The writer's own retries are spent; a bad answer is not worth retrying here.
        throw ApplicationFailure.create({ type: 'PitchWriterError', message: (error as Error).message, nonRetryable: true });
      }
      await db.pitchVersion.createMany({
        data: [{ productionId, version, workspaceId: row.workspaceId, pitch: pitch as Prisma.InputJsonValue }],
        skipDuplicates: true,
      });
      return { applied: true, verdict: pitch.verdict };
    },

    async showPitch({ productionId, version }) {
      const { pitch } = await db.pitchVersion.findUniqueOrThrow({ where: { productionId_version: { productionId, version } } });
      const { verdict, verdictReason } = pitch as Pitch;
      const stage = verdict === 'skip' ? 'skipped' : 'pitch_ready';
      return outcome(await announce(stage === 'skipped' ? 'production.skipped' : 'production.pitch_ready', {
        productionId, stepKey: `${productionId}:pitch:${version}`, from: ['writing_pitch'],
        event: { kind: 'pitch', ...SYSTEM_ACTOR, payload: { stage, version, ...(verdictReason ? { reason: verdictReason } : {}) } },
        update: { stage, pitchVersion: version },
      }));
    },

    async greenlight({ productionId, pitchVersion, projectId, mode, actor, actorName }) {
      const { ownerId } = await owner(productionId);
      let refused: Refused | null = null;
      const result = await announce('production.greenlit', {
        productionId, stepKey: `${productionId}:greenlit`, from: ['pitch_ready'],
        event: { kind: 'greenlit', actor, actorName, payload: { stage: 'greenlit', pitchVersion } },
        update: {},
      }, async (tx) => {
        const pitch = await tx.pitchVersion.findUniqueOrThrow({ where: { productionId_version: { productionId, version: pitchVersion } } });
        const amount = (pitch.pitch as Pitch).estimatedCredits;
        const charge = await chargeWithin(tx, { accountId: ownerId, productionId, amount });
        if (!charge.ok) {
          refused = { refused: 'credits', message: `Greenlighting needs ${amount} credits; the workspace owner has ${charge.balance}.` };
          throw new Refusal();
        }
        return {
          payload: { creditsCharged: charge.charged },
          update: {
            stage: 'greenlit', creditsCharged: charge.charged, projectId,
            greenlight: { mode, actor, actorName, at: new Date().toISOString(), pitchVersion },
          },
        };
      }).catch((error: unknown) => {
        if (error instanceof Refusal) return null;
        throw error;
      });
      // Auto-greenlight refused: the pitch now waits for a person, who is asked by e-mail.
      if (refused && mode === 'auto') await events?.emailLinks(productionId, pitchVersion);
      return refused ?? outcome(result!);
    },

    async recordComment({ productionId, pitchVersion, comment, actor, actorName }) {
      const { production, ownerId, pitchCap } = await owner(productionId);
      const needed = creditsFor(Brief.parse(production.brief).format.durationMs);
      let refused: Refused | null = null;
      const result = await applyStep(db, {
        productionId, stepKey: `${productionId}:comment:${pitchVersion}`, from: ['pitch_ready'],
        event: { kind: 'comment', actor, actorName, payload: { stage: 'writing_pitch', comment, pitchVersion } },
        update: { stage: 'writing_pitch', revisionsLeft: { decrement: 1 } },
      }, async (tx) => {
        const available = await balance(tx, ownerId);
        if (available < needed) {
          refused = { refused: 'credits', message: `This video needs ${needed} credits; the workspace owner has ${available}.` };
          throw new Refusal();
        }
        if ((await pitchesUsed(tx, production.workspaceId)) >= pitchCap) {
          refused = { refused: 'cap', message: `This workspace has used its ${pitchCap} pitches for this month.` };
          throw new Refusal();
        }
      }).catch((error: unknown) => {
        if (error instanceof Refusal) return null;
        throw error;
      });
      return refused ?? outcome(result!);
    },

    async decline({ productionId, reason, actor, actorName }) {
      return outcome(await announce('production.declined', {
        productionId, stepKey: `${productionId}:declined`, from: ['queued', 'writing_pitch', 'pitch_ready'],
        event: { kind: 'declined', actor, actorName, payload: { stage: 'declined', ...(reason ? { reason } : {}) } },
        update: { stage: 'declined' },
      }));
    },

    async cancel({ productionId, reason, actor, actorName }) {
      return outcome(await announce('production.cancelled', {
        productionId, stepKey: `${productionId}:cancelled`, from: NOT_STARTED,
        event: { kind: 'cancelled', actor, actorName, payload: { stage: 'cancelled', ...(reason ? { reason } : {}) } },
        update: { stage: 'cancelled', queue: Prisma.DbNull },
      }, refundInStep(productionId)));
    },

    async startMaking({ productionId }) {
      return outcome(await announce('production.progress', {
        productionId, stepKey: `${productionId}:making`, from: ['greenlit'],
        event: { kind: 'stage', ...SYSTEM_ACTOR, payload: { stage: 'making' } },
        update: { stage: 'making', queue: { phase: null, startedAt: null, retrying: false, lastProgress: null } },
      }));
    },

    async deliver({ productionId, delivery }) {
      return outcome(await announce('production.delivered', {
        productionId, stepKey: `${productionId}:delivered`, from: ['making', 'exporting'],
        event: { kind: 'delivered', ...SYSTEM_ACTOR, payload: { stage: 'delivered' } },
        update: { stage: 'delivered', delivery, queue: Prisma.DbNull },
      }));
    },

    async fail({ productionId, error }) {
      return outcome(await announce('production.failed', {
        productionId, stepKey: `${productionId}:failed`, from: NOT_STARTED,
        event: { kind: 'failed', ...SYSTEM_ACTOR, payload: { stage: 'failed', error } },
        update: { stage: 'failed', error, queue: Prisma.DbNull },
      }, refundInStep(productionId)));
    },
  };
}

/** Thrown inside a step's transaction to roll it back when the step is refused. */
class Refusal extends Error {}

/** A charge made before a terminal step is given back in full, in the same transaction. */
function refundInStep(productionId: string): StepWork {
  return async (tx) => {
    const creditsRefunded = await refundWithin(tx, productionId);
    return creditsRefunded ? { payload: { creditsRefunded } } : undefined;
  };
}
