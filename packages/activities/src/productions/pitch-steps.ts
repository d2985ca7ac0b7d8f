import { ApplicationFailure } from '@temporalio/common';
import { SYSTEM_ACTOR } from '@vp/accounts';
import { Brief, type Pitch, type Stage } from '@vp/contracts';
import type { Prisma } from '@vp/db';
import { applyStep } from '@vp/productions';
import type { ProductionActivities } from '@vp/workflows/definitions';
import type { Steps } from './steps.ts';

/** The pitch's steps: writing starts, a version is written, then shown. */
export function pitchSteps({ db, writer, outcome, announce }: Steps): Pick<ProductionActivities, 'startWritingPitch' | 'writePitch' | 'showPitch'> {
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
  };
}
