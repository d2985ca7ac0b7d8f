import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { ensureExport, ensureProject } from '@vp/projects';
import { toProduction, withCurrentPitch } from '@vp/productions';
import { composeProduction } from '@vp/render';
import type { RenderFarmDeps } from './deps.ts';
import { progressReports } from './progress-reports.ts';
import type { RenderTry } from './render-try.ts';

/** A greenlit production's video: its project made once, then its first export rendered with progress reported. */
export async function makeVideo(deps: RenderFarmDeps, { fetcher, failedTry, patiently, produce }: RenderTry, { productionId, projectId, exportId }: { productionId: string; projectId: string; exportId: string }): Promise<void> {
  const { db } = deps;
  const row = await patiently(() => db.production.findUniqueOrThrow({ where: { id: productionId }, include: withCurrentPitch }));
  const { brief, pitch } = toProduction(row, deps.appUrl);
  if (!pitch) throw ApplicationFailure.create({ type: 'NoPitch', message: 'The production has no pitch to make.', nonRetryable: true });
  const { composition } = await patiently(() => ensureProject(db, {
    id: projectId, workspaceId: row.workspaceId, productionId, title: pitch.title, compose: () => composeProduction({ brief, pitch }),
  })).catch((error: unknown) => {
    throw failedTry(error);
  });
  const made = await patiently(() => ensureExport(db, { id: exportId, projectId, version: 1 }));
  // A try that finished the files but died before answering: they are the video.
  if (made.status !== 'done') {
    const { log, info } = Context.current();
    const progress = progressReports(deps.reportProgress, {
      productionId, attempt: info.attempt, onLost: (error) => log.warn('a progress report was not sent', { error: String(error) }),
    });
    try {
      await produce({
        exportId, composition, fetchMedia: fetcher(), onPhase: (phase) => progress.phase(phase), onRetry: () => progress.retryFollows(),
      });
    } finally {
      await progress.flush();
    }
  }
}
