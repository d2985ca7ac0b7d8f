import { setTimeout as sleep } from 'node:timers/promises';
import { isDatabaseFailure } from '@vp/db';

/** Pauses between tries of a call while the database is away, the last one repeated. */
const PAUSES_MS = [500, 1000, 2000, 4000, 8000, 10_000];

/**
 * Runs a render try's database call until the database answers it. A database that restarts or
 * fails over is ours to wait out: failing the try would spend one of the production's three on
 * it, and a finished video would be thrown away. Only the database's failures are tried again
 * (`isDatabaseFailure`); `signal` (the try's cancellation) ends the wait with its reason.
 * `onPause` runs at every pause: a heartbeat, so the try is not taken for dead meanwhile.
 */
export async function untilTheDatabaseAnswers<T>(
  call: () => Promise<T>, options: { signal: AbortSignal; onPause?: () => void },
): Promise<T> {
  for (let tries = 0; ; tries++) {
    try {
      return await call();
    } catch (error) {
      if (!isDatabaseFailure(error)) throw error;
      options.onPause?.();
      await sleep(PAUSES_MS[Math.min(tries, PAUSES_MS.length - 1)], undefined, { signal: options.signal }).catch(() => {
        throw options.signal.reason;
      });
    }
  }
}
