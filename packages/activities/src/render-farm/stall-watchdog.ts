import type { Phase } from '@vp/contracts';
import { RenderError } from '@vp/render';
import { describeDuration } from '@vp/webhooks';

/** A render that reported nothing for too long: a hung tool (ffmpeg, espeak-ng), perhaps the machine. Worth another try. */
export class RenderStalledError extends RenderError {}

/**
 * Watches a render's phase and progress reports. Heartbeats go on while a child process hangs,
 * so only the reports tell a hung render from a slow one: once none has come for `stallMs`,
 * `signal` aborts with a `RenderStalledError`, which kills the render's children and ends the try.
 */
export function stallWatchdog(stallMs: number) {
  const controller = new AbortController();
  let phase: Phase | null = null;
  const timer = setTimeout(() => {
    const where = phase ? ` while ${phase}` : '';
    controller.abort(new RenderStalledError(`The render stopped making progress${where}: nothing moved for ${describeDuration(stallMs)}.`));
  }, stallMs);
  return {
    signal: controller.signal,
    /** The render reported a phase or progress. */
    moved(now: Phase) {
      phase = now;
      // Refreshing a timer that has fired would start it again.
      if (!controller.signal.aborted) timer.refresh();
    },
    stop: () => clearTimeout(timer),
  };
}
