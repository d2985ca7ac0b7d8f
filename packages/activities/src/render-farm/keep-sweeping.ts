/**
 * Runs `sweep` now and then every `everyMs` until `signal` aborts, reporting what each sweep
 * removed. A failed sweep is reported and tried again next time: it must never stop the worker.
 */
export function keepSweeping(
  sweep: () => Promise<string[]>,
  options: { everyMs: number; signal: AbortSignal; onSwept: (removed: string[]) => void; onError: (error: unknown) => void },
): void {
  const run = () => {
    sweep().then((removed) => {
      if (removed.length && !options.signal.aborted) options.onSwept(removed);
    }, options.onError);
  };
  if (options.signal.aborted) return;
  run();
  const timer = setInterval(run, options.everyMs);
  // The worker's process ends when its worker does, not when the sweeping does.
  timer.unref();
  options.signal.addEventListener('abort', () => clearInterval(timer), { once: true });
}
