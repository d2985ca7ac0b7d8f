/**
 * Runs `task` now and then every `everyMs` until `signal` aborts (a worker's upkeep: sweeping,
 * pruning), handing each result to `onDone`. A failed run is reported and tried again next time:
 * it must never stop the worker.
 */
export function keepRunning<T>(
  task: () => Promise<T>,
  options: { everyMs: number; signal: AbortSignal; onDone: (result: T) => void; onError: (error: unknown) => void },
): void {
  const run = () => {
    task().then((result) => {
      if (!options.signal.aborted) options.onDone(result);
    }, options.onError);
  };
  if (options.signal.aborted) return;
  run();
  const timer = setInterval(run, options.everyMs);
  // The worker's process ends when its worker does, not when its upkeep does.
  timer.unref();
  options.signal.addEventListener('abort', () => clearInterval(timer), { once: true });
}
