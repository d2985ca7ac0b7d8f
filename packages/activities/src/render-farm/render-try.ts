import { Context } from '@temporalio/activity';
import type { Phase } from '@vp/contracts';
import type { FetchMedia } from '@vp/render';
import { RENDER_TRIES } from '@vp/workflows/definitions';
import type { RenderFarmDeps } from './deps.ts';
import { asActivityFailure, failsEveryTry, workerStoppedFailure } from './failures.ts';
import { renderHeartbeats } from './heartbeat.ts';
import { mediaFetcher } from './media.ts';
import { produceExport } from './produce.ts';
import { untilTheDatabaseAnswers } from './until-the-database-answers.ts';

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

/** What every try of a render farm activity uses: media, database calls that wait, the render itself. */
export type RenderTry = ReturnType<typeof renderTry>;

/** The tools of a render farm activity's try (each reads the current activity's context when called). */
export function renderTry(deps: RenderFarmDeps) {
  const { blobs } = deps;
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

  return { fetcher, failedTry, patiently, produce };
}
