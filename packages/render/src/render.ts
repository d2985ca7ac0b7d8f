import { copyFile, mkdir, mkdtemp, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Phase } from '@vp/contracts';
import { buildStems, mixStems, speakLines } from './audio/mix.ts';
import { warmUp } from './code/highlight.ts';
import { FPS } from './composition/frame-size.ts';
import { parseComposition, type Composition } from './composition/schema.ts';
import { Compositor } from './draw/compositor.ts';
import { themeFor } from './draw/theme.ts';
import { FramePixels } from './encode/frame-pixels.ts';
import { VideoEncoder } from './encode/video-encoder.ts';
import { loadAssets, pictureSizes, type Assets } from './media/assets.ts';
import { publicMediaFetcher, type FetchMedia, type MediaLimit, type MediaRole } from './media/fetch-media.ts';
import { PhaseTracker, type ProgressReport } from './phases.ts';
import { planComposition, type Plan } from './plan/plan.ts';
import { reviewVideo, type VideoReview } from './review/review.ts';

export interface RenderOptions {
  /** The finished MP4. */
  outFile: string;
  /** The poster frame (JPEG); defaults to `outFile` with a `.jpg` extension. */
  posterFile?: string;
  /** A folder for intermediate files; a subfolder is made in it and removed afterwards. */
  workDir: string;
  /** How media URLs are read; defaults to fetching from public addresses only. */
  fetchMedia?: FetchMedia;
  mediaLimits?: Partial<Record<MediaRole, MediaLimit>>;
  /** Called as each phase starts, in the order of `PHASES`. */
  onPhase?: (phase: Phase) => void;
  /** Called often (for heartbeats): `overall` runs from 0 to 1 across all phases. */
  onProgress?: (progress: ProgressReport) => void;
  /** Aborting kills the child processes, removes the intermediate files and rejects with the signal's reason. */
  signal?: AbortSignal;
}

export interface RenderResult {
  file: string;
  posterFile: string;
  width: number;
  height: number;
  frames: number;
  durationMs: number;
  bytes: number;
  review: VideoReview;
  /** Wall time of each phase in milliseconds. */
  timings: Record<Phase, number>;
}

/**
 * Renders a composition into an MP4 (H.264 yuv420p + AAC, 30 fps, the composition's exact
 * frame size and length, index up front) and a poster frame.
 */
export async function renderComposition(input: Composition, options: RenderOptions): Promise<RenderResult> {
  const composition = parseComposition(input);
  options.signal?.throwIfAborted();
  // Aborted by the caller, or by this function when it fails: either way every child process dies.
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  const posterFile = options.posterFile ?? options.outFile.replace(/\.[^./]+$/, '') + '.jpg';
  await mkdir(options.workDir, { recursive: true });
  const dir = await mkdtemp(join(options.workDir, 'render-'));
  const phases = new PhaseTracker(options);
  const { width, height, durationMs } = composition;
  let soundtrack: Promise<void> | null = null;

  try {
    phases.enter('preparing');
    const preparing = [
      loadAssets(composition, {
        fetchMedia: options.fetchMedia ?? publicMediaFetcher(), dir, limits: options.mediaLimits, signal,
        onProgress: (fraction) => phases.progress(fraction * 0.9),
      }),
      speakLines(composition, signal),
      // Downloads wait on the network: meanwhile the code grammars compile.
      warmUp(codeSamples(composition)),
    ] as const;
    const [assets, spoken] = await Promise.all(preparing).catch(async (error: unknown) => {
      // The others stop, and end before `dir` is removed: a download still writing there would
      // turn the removal's failure into the render's.
      stop.abort();
      await Promise.allSettled(preparing);
      throw error;
    });

    phases.enter('planning');
    const plan = await planComposition(composition, themeFor(composition.brand, assets.logo), pictureSizes(assets));
    const durationSeconds = plan.frames / FPS;

    phases.enter('building');
    const videoFile = join(dir, 'video.mp4');
    const poster = await buildVideo(plan, assets, videoFile, signal, (fraction) => phases.progress(fraction));

    phases.enter('reviewing');
    // The soundtrack needs nothing from the frames: ffmpeg mixes it and puts it beside the
    // video's stream while the review decodes its samples, and polishing only waits for it (a
    // failure still surfaces there, in order). It starts after the encoder has exited, so their
    // memory is never needed at the same time.
    const reviewed = reviewVideo(videoFile, { width, height, durationMs, audio: false, sampleAtMs: plan.midpoints, samplesAreKeyframes: true }, { signal, workDir: dir });
    reviewed.catch(() => {});
    const finalFile = join(dir, 'final.mp4');
    soundtrack = mixStems(buildStems(composition, spoken, durationSeconds), {
      dir, durationSeconds, loudnessLufs: composition.audio.loudnessLufs, videoFile, outFile: finalFile, signal,
    });
    soundtrack.catch(() => {});
    await reviewed;

    phases.enter('polishing');
    await soundtrack;
    phases.progress(0.7);

    phases.enter('exporting');
    // The video's stream was copied, not re-encoded: the container and the sound need checking.
    const review = await reviewVideo(finalFile, { width, height, durationMs }, { signal, workDir: dir });
    await Promise.all([moveFile(finalFile, options.outFile), writeFile(posterFile, poster)]);
    phases.progress(1);
    phases.stop();
    return {
      file: options.outFile, posterFile, width, height, frames: plan.frames,
      durationMs: Math.round(durationSeconds * 1000), bytes: (await stat(options.outFile)).size, review, timings: phases.timings,
    };
  } catch (error) {
    throw options.signal?.aborted ? options.signal.reason : error;
  } finally {
    stop.abort();
    await soundtrack?.catch(() => {});
    await rm(dir, { recursive: true, force: true });
  }
}

/** The code the editors will show, for the grammars to compile on: the lines down to a screen past each change. */
function codeSamples(composition: Composition): { language: string; text: string }[] {
  return composition.scenes.flatMap(({ code }) => (code
    ? [{ language: code.language, text: code.lines.slice(0, code.focusLine + 30).map((l) => l.text).join('\n') }]
    : []));
}

/** Draws every frame and streams it to the encoder; returns the poster frame as JPEG. */
async function buildVideo(
  plan: Plan, assets: Assets, outFile: string, signal: AbortSignal | undefined, onProgress: (fraction: number) => void,
): Promise<Buffer> {
  const { width, height } = plan.composition;
  const compositor = new Compositor(plan, assets, signal);
  const encoder = new VideoEncoder({ width, height, outFile, keyframeTimesMs: plan.midpoints, signal });
  // The encoder snapshots the canvas when called: drawing the next frame does not disturb it.
  let poster: Promise<Buffer> | null = null;
  try {
    const pixels = new FramePixels(compositor.canvas);
    for (let frame = 0; frame < plan.frames; frame++) {
      signal?.throwIfAborted();
      // The poster is taken from the canvas, so its frame is drawn whole.
      const frameBuffer = pixels.update(await compositor.draw(frame, { whole: frame === plan.posterFrame }));
      if (frame === plan.posterFrame) {
        poster = compositor.canvas.encode('jpeg', 88);
        poster.catch(() => {});
      }
      await encoder.write(frameBuffer);
      if (frame % 15 === 0) onProgress(frame / plan.frames);
    }
    await encoder.finish();
    onProgress(1);
    return await (poster ?? compositor.canvas.encode('jpeg', 88));
  } catch (error) {
    encoder.kill();
    throw signal?.aborted ? signal.reason : error;
  } finally {
    compositor.dispose();
  }
}

async function moveFile(from: string, to: string): Promise<void> {
  await mkdir(dirname(to), { recursive: true });
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await copyFile(from, to);
    await unlink(from);
  }
}
