import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { BlobStore } from '@vp/blobs';
import type { Phase } from '@vp/contracts';
import type { Db } from '@vp/db';
import {
  confirmRenderStarted, ensureExport, ensureProject, failRender as markRenderFailed, finishRender, RENDER_NOT_STARTED, renderImagesPrefix, renderProgress, startRender,
} from '@vp/projects';
import { toProduction, withCurrentPitch } from '@vp/productions';
import { composeImages, composeProduction, type FetchMedia, type Resolution } from '@vp/render';
import { RENDER_TRIES, type RenderFarmActivities, type RenderFarmSteps } from '@vp/workflows/definitions';
import { asActivityFailure, failsEveryTry, workerStoppedFailure } from './failures.ts';
import { renderHeartbeats } from './heartbeat.ts';
import { mediaFetcher } from './media.ts';
import { discardVideo, giveUpExport, produceExport } from './produce.ts';
import { progressReports, type ReportProgress } from './progress-reports.ts';
import { abandonRender, removeRenderImages } from './sweep-unstarted-renders.ts';
import { untilTheDatabaseAnswers } from './until-the-database-answers.ts';

export { mediaFetcher } from './media.ts';
export { SWEEP_EVERY_MS, sweepWorkDir } from './sweep-work-dir.ts';
export { sweepUnstartedRenders } from './sweep-unstarted-renders.ts';

export type RenderFarmDeps = {
  db: Db;
  blobs: BlobStore;
  /** Where renders write their intermediate files (removed after each try; `sweepWorkDir` removes what a killed worker left). */
  workDir: string;
  /** RENDER_STALL_MS: a render that reports no phase or progress for this long is stopped, and the try fails (retryable). */
  stallMs: number;
  appUrl: string;
  /** Development only: media on private and loopback addresses. */
  allowPrivateUrls: boolean;
  /** Where a production's render reports its phases: to the production's workflow, which records them. */
  reportProgress: ReportProgress;
};

/**
 * Cancelled because the server timed this try out (its heartbeats stopped): another try may be
 * running. (A try whose workflow ended, a cancelled production's, is only `notFound`.)
 */
function tryGivenUp(): boolean {
  return Boolean(Context.current().cancellationDetails?.timedOut);
}

/** Cut short because this worker is stopping and its grace time ran out: not the production's doing. */
function workerStopping(): boolean {
  return Boolean(Context.current().cancellationDetails?.workerShutdown);
}

/** The render farm's activities and its workflows' steps. Every one may run again after a crash. */
export function createRenderFarmActivities(deps: RenderFarmDeps): RenderFarmActivities & RenderFarmSteps {
  const { db, blobs } = deps;
  const fetcher = (blobPrefix?: string): FetchMedia => mediaFetcher({ blobs, allowPrivate: deps.allowPrivateUrls, blobPrefix });
  /** A failure of this try, as Temporal should see it (see `asActivityFailure`). */
  const failedTry = (error: unknown) => asActivityFailure(error, Context.current().info.attempt);
  /**
   * A try's database call, the database's absence waited out with heartbeats (see
   * `untilTheDatabaseAnswers`). A wait cut short by this worker's stop is a failed try, as in `produce`.
   */
  const patiently = <T>(call: () => Promise<T>) => untilTheDatabaseAnswers(call, {
    signal: Context.current().cancellationSignal, onPause: () => Context.current().heartbeat(),
  }).catch((error: unknown) => {
    throw workerStopping() ? workerStoppedFailure(Context.current().info.attempt) : error;
  });

  /**
   * Cancelled (the production was, or its workflow ended), a failure that comes again on every
   * try, or the last try: Temporal tries no more. A worker that stops is no reason to give up.
   */
  const lastTry = (error: unknown) => (Context.current().cancellationSignal.aborted && !workerStopping())
    || failsEveryTry(error) || Context.current().info.attempt >= RENDER_TRIES;

  /**
   * Renders an export with heartbeats, honouring cancellation; failures as Temporal should see
   * them. `onRetry`: this try failed and Temporal will try again.
   */
  async function produce(input: {
    exportId: string; composition: unknown; fetchMedia: FetchMedia;
    onPhase?: (phase: Phase) => void; onOverall?: (overall: number) => void; onRetry?: () => void;
  }) {
    const beats = renderHeartbeats();
    try {
      return await produceExport(deps, {
        exportId: input.exportId, composition: input.composition, fetchMedia: input.fetchMedia,
        signal: Context.current().cancellationSignal, givenUp: tryGivenUp, lastTry,
        onPhase: (phase) => {
          beats.report({ phase, overall: 0 });
          input.onPhase?.(phase);
        },
        onProgress: (progress) => {
          beats.report(progress);
          input.onOverall?.(progress.overall);
        },
      });
    } catch (error) {
      // A try the server gave up on has a successor already, which speaks for itself.
      if (!lastTry(error) && !tryGivenUp()) input.onRetry?.();
      throw workerStopping() ? workerStoppedFailure(Context.current().info.attempt) : failedTry(error);
    } finally {
      beats.stop();
    }
  }

  return {
    async makeVideo({ productionId, projectId, exportId }) {
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
    },

    async renderImages({ renderId }) {
      // The render is this workflow's from now on; one given up before (its start had failed) is not made.
      if (!(await patiently(() => confirmRenderStarted(db, renderId)))) {
        throw ApplicationFailure.create({ type: 'RenderGivenUp', message: RENDER_NOT_STARTED, nonRetryable: true });
      }
      const render = await patiently(() => db.render.findUniqueOrThrow({ where: { id: renderId } }));
      if (render.status === 'done') return;
      const workspace = await patiently(() => db.workspace.findFirstOrThrow({
        where: { ownerId: render.accountId }, orderBy: [{ personal: 'desc' }, { createdAt: 'asc' }],
      }));
      const { composition } = await patiently(() => ensureProject(db, {
        id: render.projectId, workspaceId: workspace.id, productionId: null, title: render.appName ?? 'Images',
        compose: () => composeImages({
          images: render.imageKeys.map((key, i) => ({ url: `blob:${key}`, name: `Image ${i + 1}` })),
          resolution: render.resolution as Resolution, background: render.background as 'black' | 'white',
          appName: render.appName, accent: render.accent,
        }),
      })).catch((error: unknown) => {
        throw failedTry(error);
      });
      const made = await patiently(() => ensureExport(db, { id: render.exportId, projectId: render.projectId, version: 1 }));
      if (made.status !== 'done') {
        await patiently(() => startRender(db, renderId));
        // A row write at most every 5% of the way: the API shows progress, the database barely notices.
        let shown = 0;
        await produce({
          exportId: render.exportId, composition, fetchMedia: fetcher(renderImagesPrefix(renderId)),
          onOverall: (overall) => {
            const progress = Math.floor(overall * 20) / 20;
            if (progress <= shown || progress >= 1) return;
            shown = progress;
            void renderProgress(db, renderId, progress).catch(() => {});
          },
        });
      }
      await patiently(() => finishRender(db, renderId));
    },

    async exportVersion({ exportId }) {
      const made = await patiently(() => db.export.findUniqueOrThrow({ where: { id: exportId }, include: { project: true, projectVersion: true } }));
      if (made.status === 'done') return;
      const render = made.project.productionId
        ? null : await patiently(() => db.render.findFirst({ where: { projectId: made.projectId }, select: { id: true } }));
      await produce({ exportId, composition: made.projectVersion.composition, fetchMedia: fetcher(render ? renderImagesPrefix(render.id) : undefined) });
    },

    async failRender({ renderId, error }) {
      const render = await db.render.findUniqueOrThrow({ where: { id: renderId } });
      await markRenderFailed(db, renderId, error);
      await giveUpExport(deps, render.exportId, error);
      await removeRenderImages(blobs, renderId);
    },

    async failExport({ exportId, error }) {
      await giveUpExport(deps, exportId, error);
    },

    async discardVideo({ exportId, reason }) {
      await discardVideo(deps, exportId, reason);
    },

    async abandonRender({ renderId }) {
      await abandonRender(deps, renderId);
    },
  };
}
export { createStoryboardActivities, type StoryboardDeps } from './storyboard.ts';
