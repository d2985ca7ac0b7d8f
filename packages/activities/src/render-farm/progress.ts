import type { Phase, SubscribableEventType } from '@vp/contracts';
import type { Db, Prisma } from '@vp/db';
import { applyStep, type Step } from '@vp/productions';
import { SYSTEM_ACTOR } from '@vp/workflows/definitions';
import type { EventPublisher } from '../publish.ts';

/** A write that fails is tried again after these pauses (a database that blinks), then given up. */
const WRITE_RETRIES_MS = [200, 1000, 3000];

const IN_WORDS: Record<Phase, string> = {
  preparing: 'Preparing: fetching the media and recording the voiceover.',
  planning: 'Planning the shots, their timing and transitions.',
  building: 'Building the video frame by frame.',
  reviewing: 'Reviewing the video: length, size, streams and every shot.',
  polishing: 'Polishing: mixing and levelling the sound.',
  exporting: 'Exporting the finished video.',
};

/**
 * A production's render phases in its read model, one try at a time: each phase writes the
 * queue status and one `note` (step key per try and phase, so a retried write adds nothing) and
 * publishes `production.progress`; so does a failed try that another follows (`retrying`).
 * The stage follows the try: `exporting` once it exports, and `making` again when a retry
 * starts over after a try that failed while exporting.
 * A try the server gave up on may report on in the moment before it hears: once a later try
 * has reported, its reports are dropped, so neither the queue status nor the stage goes back a try.
 * Writes run in order, off the render's path, each tried again a few times before it is given
 * up (its step key makes a retried write add nothing); `flush` waits for them and reports a failure.
 */
export function productionProgress(
  deps: { db: Db; events?: EventPublisher },
  input: { productionId: string; attempt: number; maxAttempts: number },
) {
  const { db, events } = deps;
  const { productionId, attempt } = input;
  const startedAt = new Date().toISOString();
  const retrying = attempt > 1;
  let writes = Promise.resolve();
  let failure: unknown = null;

  /** A step of this try, unless a later try has reported; an event, when it has a type, sent once it commits. */
  async function apply(step: Step, type?: SubscribableEventType) {
    const recorded = type && events ? { ...step, after: events.recorder(type, step) } : step;
    const result = await applyStep(db, recorded, stillCurrent).catch((error: unknown) => {
      if (error instanceof Superseded) return null;
      throw error;
    });
    if (type && result?.applied) await events?.dispatch(type, step);
  }

  /** Refuses the write once a later try of this render has reported (the production's row is locked). */
  async function stillCurrent(tx: Prisma.TransactionClient) {
    const laterTries = Array.from({ length: Math.max(0, input.maxAttempts - attempt) }, (_, i) => `${productionId}:render:${attempt + 1 + i}:%`);
    if (!laterTries.length) return;
    const reported = await tx.$queryRaw<unknown[]>`
      SELECT 1 FROM production_events WHERE production_id = ${productionId}::uuid AND step_key LIKE ANY(${laterTries}::text[]) LIMIT 1`;
    if (reported.length) throw new Superseded();
  }

  // A retry's first phase may find the stage where the try before it left it (exporting).
  let startingOver = retrying;

  /** Only a move is recorded: from making to exporting, or back when a retry starts over. */
  function stageMove(phase: Phase): 'making' | 'exporting' | null {
    const stage = phase === 'exporting' ? 'exporting' : startingOver ? 'making' : null;
    startingOver = false;
    return stage;
  }

  async function record(phase: Phase, stage: 'making' | 'exporting' | null) {
    if (stage) {
      await apply({
        productionId, stepKey: `${productionId}:${stage}:${attempt}`, from: [stage === 'exporting' ? 'making' : 'exporting'],
        event: { kind: 'stage', ...SYSTEM_ACTOR, payload: { stage } },
        update: { stage },
      });
    }
    const words = retrying ? `${IN_WORDS[phase]} (Try ${attempt} of ${input.maxAttempts}.)` : IN_WORDS[phase];
    await apply({
      productionId, stepKey: `${productionId}:render:${attempt}:${phase}`, from: ['making', 'exporting'],
      event: { kind: 'note', ...SYSTEM_ACTOR, payload: { phase } },
      update: { queue: { phase, startedAt, retrying, lastProgress: words } },
    }, 'production.progress');
  }

  /** This try failed and another follows: said at once, not when that try starts seconds later. */
  async function recordRetry() {
    await apply({
      productionId, stepKey: `${productionId}:render:${attempt}:retry`, from: ['making', 'exporting'],
      // The spec's payload of a progress note is the phase moved to: none, between tries. The queue status says why.
      event: { kind: 'note', ...SYSTEM_ACTOR, payload: { phase: null } },
      update: { queue: { phase: null, startedAt: null, retrying: true, lastProgress: `Try ${attempt} of ${input.maxAttempts} did not succeed; the next starts in a few seconds.` } },
    }, 'production.progress');
  }

  /**
   * Writes run one after another, in the order reported; the first failure is kept for `flush`.
   * After one, the database is likely down: the others are tried once, so a try never waits long.
   */
  function queue(write: () => Promise<void>) {
    writes = writes.then(() => retried(write, failure ? [] : WRITE_RETRIES_MS)).catch((error: unknown) => {
      failure ??= error;
    });
  }

  return {
    phase: (phase: Phase) => {
      // Decided when reported, not when written: a write tried again makes the same move.
      const stage = stageMove(phase);
      queue(() => record(phase, stage));
    },
    retryFollows: () => queue(recordRetry),
    async flush() {
      await writes;
      if (failure) throw failure;
    },
  };
}

/** A report from a try that a later try has replaced. */
class Superseded extends Error {}

async function retried(write: () => Promise<void>, pausesMs: number[]): Promise<void> {
  for (const pauseMs of pausesMs) {
    try {
      return await write();
    } catch {
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  }
  return write();
}
