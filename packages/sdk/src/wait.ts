import { ProductionEndedError } from './errors.ts';
import type { ProductionDetail } from './productions.ts';
import { sleep as realSleep, type Sleep } from './sleep.ts';

/** The stages a production never leaves (a newer service may add more: it says so in `terminal`). */
export const TERMINAL_STAGES = ['delivered', 'skipped', 'declined', 'cancelled', 'failed'] as const;

export type WaitOptions = {
  /** A stage, several, or a test of the read production. Default: it has ended (`terminal`). */
  until?: string | readonly string[] | ((detail: ProductionDetail) => boolean);
  /** Called on the first read and whenever the stage, the pitch version or the queue's progress changes. */
  onProgress?: (detail: ProductionDetail) => void;
  /** Stops waiting: the returned promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Between reads. Default 2 s. */
  intervalMs?: number;
  sleep?: Sleep;
};

export const isTerminal = (production: { stage: string; terminal?: boolean }) =>
  production.terminal ?? (TERMINAL_STAGES as readonly string[]).includes(production.stage);

/**
 * Reads a production until `until` holds and returns that read. A production that ends in a stage
 * `until` does not accept rejects with a `ProductionEndedError` carrying the stage and its reason.
 */
export async function waitForProduction(read: (id: string) => Promise<ProductionDetail>, id: string, options: WaitOptions = {}): Promise<ProductionDetail> {
  const { intervalMs = 2000, sleep = realSleep, signal } = options;
  const done = untilTest(options.until);
  let seen = '';
  for (;;) {
    signal?.throwIfAborted();
    const detail = await read(id);
    const now = progressKey(detail);
    if (now !== seen) {
      seen = now;
      options.onProgress?.(detail);
    }
    if (done(detail)) return detail;
    if (isTerminal(detail.production)) throw new ProductionEndedError(detail.production.stage, id, detail.production.error);
    await sleep(intervalMs, signal);
  }
}

function untilTest(until: WaitOptions['until']): (detail: ProductionDetail) => boolean {
  if (typeof until === 'function') return until;
  if (until === undefined) return (detail) => isTerminal(detail.production);
  const stages = typeof until === 'string' ? [until] : until;
  return (detail) => stages.includes(detail.production.stage);
}

/** What a watcher would call progress: stage, pitch version, and the queue's phase and words. */
function progressKey({ production, queue }: ProductionDetail): string {
  return JSON.stringify([production.stage, production.pitch?.version ?? null, queue?.phase ?? null, queue?.retrying ?? false, queue?.lastProgress ?? null]);
}
