import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { BlobStore } from '@vp/blobs';
import type { Db, Export } from '@vp/db';
import { discardExport, exportFolder, exportKeys, failExport, finishExport, startExport } from '@vp/projects';
import { RenderError, renderComposition, type Composition, type FetchMedia, type RenderOptions } from '@vp/render';
import { stallWatchdog } from './stall-watchdog.ts';
import { untilTheDatabaseAnswers } from './until-the-database-answers.ts';

export type ProduceDeps = {
  db: Db;
  blobs: BlobStore;
  workDir: string;
  /** A render that reports no phase or progress for this long has hung: it is stopped, and the try fails. */
  stallMs: number;
};

/**
 * Renders one export of a stored composition in a folder of its own, puts the MP4 and its
 * poster in the blob store and records them. A failure marks the export failed only when no
 * try follows (`lastTry`; without it, every try is the last): between tries the export is still
 * being made, so the project page keeps following it and another export of the version waits
 * its turn. A render that stops making progress is stopped (`stallWatchdog`).
 */
export async function produceExport(
  deps: ProduceDeps,
  input: {
    exportId: string; composition: unknown; fetchMedia: FetchMedia; signal: AbortSignal;
    /** Whether the server gave this try up (its heartbeats stopped): the export is the next try's then. */
    givenUp?: () => boolean;
    /** Whether no try follows this failure. */
    lastTry?: (error: unknown) => boolean;
  } & Pick<RenderOptions, 'onPhase' | 'onProgress'>,
): Promise<Export> {
  const { db, blobs } = deps;
  const take = randomBytes(4).toString('hex');
  // A database away, as the try starts or as it records the video, is waited out (the try's heartbeats go on).
  const patiently = <T>(call: () => Promise<T>) => untilTheDatabaseAnswers(call, { signal: input.signal });
  await patiently(() => startExport(db, input.exportId, take));
  const dir = join(deps.workDir, `${input.exportId}-${take}`);
  const watchdog = stallWatchdog(deps.stallMs);
  try {
    const result = await renderComposition(input.composition as Composition, {
      outFile: join(dir, 'video.mp4'), posterFile: join(dir, 'poster.jpg'), workDir: dir,
      fetchMedia: input.fetchMedia, signal: AbortSignal.any([input.signal, watchdog.signal]),
      onPhase: (phase) => {
        watchdog.moved(phase);
        input.onPhase?.(phase);
      },
      onProgress: (progress) => {
        watchdog.moved(progress.phase);
        input.onProgress?.(progress);
      },
    }).finally(() => watchdog.stop());
    const files = exportKeys(input.exportId, take);
    const removeFiles = () => Promise.all([blobs.delete(files.video), blobs.delete(files.poster)]).catch(() => {});
    // Given up with the try (cancelled, or timed out by the server): a store that stopped
    // answering would otherwise hold this worker's render slot for good.
    const { signal } = input;
    await blobs.put(files.poster, { file: result.posterFile }, { contentType: 'image/jpeg', signal })
      .then(() => blobs.put(files.video, { file: result.file }, { contentType: 'video/mp4', signal }))
      .catch(async (error: unknown) => {
        // Another try finished first, and removed this one's upload as it tidied up: finishing
        // below finds its files recorded, removes what is left of this one's, and returns them.
        const row = await db.export.findUnique({ where: { id: input.exportId } }).catch(() => null);
        if (row?.status === 'done') return;
        await removeFiles();
        throw error;
      });
    const measured = { bytes: result.bytes, durationMs: result.durationMs, width: result.width, height: result.height };
    const finished = await patiently(() => finishExport(db, input.exportId, files, measured))
      .catch(async (error: unknown) => {
        const row = await db.export.findUnique({ where: { id: input.exportId } }).catch(() => undefined);
        // The change committed and only its answer was lost: finished, with these files.
        if (row?.status === 'done' && row.videoKey === files.video) return { export: row, applied: true };
        if (row !== undefined) await removeFiles();
        throw error;
      });
    if (!finished.applied) {
      // Another try (one the server gave up on, or its successor) finished first: its files are served.
      await removeFiles();
      // Or the export was given up meanwhile: there is no video to answer with.
      if (finished.export.status !== 'done') throw new Error('The export was given up while this try was making it.');
    }
    // These are served: what a try killed after its upload left beside them goes.
    else await removeTakes(blobs, input.exportId, files).catch(() => {});
    return finished.export;
  } catch (error) {
    // Another try finished the export meanwhile: this one's failure is of no account.
    const made = await db.export.findUnique({ where: { id: input.exportId } }).catch(() => null);
    if (made?.status === 'done') return made;
    // A try given up while it was frozen or cut off, told so once it is back, must not mark
    // failed the export its successor is rendering (the take, should the server say only
    // that it knows this try no more).
    if (input.givenUp?.() || input.lastTry?.(error) === false) throw error;
    const reason = input.signal.aborted ? 'The render was stopped.' : error instanceof RenderError ? error.message : 'The render failed.';
    await giveUpExport(deps, input.exportId, reason, take).catch(() => {});
    throw error;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Marks an export failed for good (no try follows) and removes what its tries left in the blob
 * store: nothing else would remove the upload of a last try killed before it was recorded. An
 * export that finished keeps its files. With `take`, only while that try is the one making it.
 */
export async function giveUpExport(deps: Pick<ProduceDeps, 'db' | 'blobs'>, exportId: string, reason: string, take?: string): Promise<void> {
  if (await failExport(deps.db, exportId, reason, take)) await removeTakes(deps.blobs, exportId);
}

/**
 * Fails an export, finished or not, and removes every file of it: its production was not
 * delivered. Run by the production's workflow when it ends without delivering, so that a last
 * try killed after its upload, or a video finished as the production was cancelled, leaves nothing.
 */
export async function discardVideo(deps: Pick<ProduceDeps, 'db' | 'blobs'>, exportId: string, reason: string): Promise<void> {
  await discardExport(deps.db, exportId, reason);
  await removeTakes(deps.blobs, exportId);
}

/** Removes every file of an export's tries but the `kept` ones. */
async function removeTakes(blobs: BlobStore, exportId: string, kept?: { video: string; poster: string }): Promise<void> {
  const stray = (await blobs.list(exportFolder(exportId))).filter((key) => key !== kept?.video && key !== kept?.poster);
  await Promise.all(stray.map((key) => blobs.delete(key)));
}
