import { ApplicationFailure, CancellationScope, condition, patched, upsertSearchAttributes } from '@temporalio/workflow';
import type { Stage } from '@vp/contracts';
import { SEARCH_ATTRIBUTE_KEYS } from '@vp/contracts/temporal';
import { REFUSALS, type Refusal } from '../definitions.ts';

/** Stages a production never leaves (`terminal`). */
export const TERMINAL: readonly Stage[] = ['delivered', 'skipped', 'declined', 'cancelled', 'failed'];
/** Stages before a greenlight: a decline is taken in any of them. */
export const BEFORE_GREENLIGHT: readonly Stage[] = ['queued', 'writing_pitch', 'pitch_ready'];

/**
 * Steps run one at a time: a mutex, as Temporal's message-passing samples guard their async
 * handlers with one, built on `condition` so that it stays deterministic. The workflow's state
 * always leads the read model, so what a client has read there, the workflow already accepts.
 */
export class Mutex {
  #held = false;

  get held(): boolean {
    return this.#held;
  }

  /**
   * Runs `critical` alone: waits until no one holds the lock and takes it in the turn it is seen
   * free (waiters woken together take turns: one that resumes after another took it waits again),
   * then gives it back. A handler checks the state again inside, since it may have moved meanwhile.
   */
  async runExclusive<T>(critical: () => Promise<T> | T): Promise<T> {
    do await condition(() => !this.#held);
    while (this.#held);
    this.#held = true;
    try {
      return await critical();
    } finally {
      this.#held = false;
    }
  }
}

/** The workflow keeps its stage in a search attribute (`Stage`), for operators to find it by. */
export const STAGE_ATTRIBUTE_PATCH = 'stage-search-attribute';

/** A production as its workflow knows it: the authority for what may happen next. */
export class ProductionState {
  #stage: Stage = 'queued';
  pitchVersion = 0;
  revisionsLeft: number;
  projectId: string | null = null;
  /** The video's export, once making it started; and why it is discarded should it not be delivered. */
  video: { exportId: string; undelivered: string } | null = null;
  /** The render farm's try, while the video is made: a cancel stops it. */
  making: CancellationScope | null = null;
  readonly lock = new Mutex();
  /** Work started beside the phases (pitch e-mails): the workflow ends only once it has settled. */
  readonly background: Promise<unknown>[] = [];
  /** Cancelled through Temporal (an operator) once this says so. */
  readonly root = CancellationScope.current();

  constructor(revisions: number) {
    this.revisionsLeft = revisions;
  }

  get stage(): Stage {
    return this.#stage;
  }

  /** Every move shows in Temporal's `Stage` search attribute too (not for runs recorded before it did). */
  set stage(stage: Stage) {
    this.#stage = stage;
    if (patched(STAGE_ATTRIBUTE_PATCH)) upsertSearchAttributes([{ key: SEARCH_ATTRIBUTE_KEYS.stage, value: stage }]);
  }

  /** The stage now: read after awaits, when a handler may have moved it. */
  now(): Stage {
    return this.#stage;
  }

  get ended(): boolean {
    return TERMINAL.includes(this.stage);
  }

  /** Once the workflow is cancelled through Temporal, the production is being cancelled: nothing else is taken. */
  get stopping(): boolean {
    return this.root.consideredCancelled;
  }
}

export function refuse(type: Refusal, message: string): never {
  throw ApplicationFailure.create({ type, message, nonRetryable: true });
}

/** A refusal from `refuse`. A local activity that fails for good is an ApplicationFailure too, of another type. */
export function isRefusal(error: unknown): boolean {
  return error instanceof ApplicationFailure && Object.hasOwn(REFUSALS, error.type ?? '');
}
