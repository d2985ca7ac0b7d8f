import type { Phase } from '@vp/contracts';
import type { RenderProgress } from '@vp/workflows/definitions';

/** Sends a try's report to its production's workflow (the production workflows' client: `reportProgress`). */
export type ReportProgress = (productionId: string, report: RenderProgress) => Promise<void>;

/**
 * A try's reports to its production's workflow, which records them and moves the stage: each
 * phase as it starts, and a failure that another try follows (`retryFollows`). They are sent in
 * order, off the render's path; one that cannot be sent (Temporal away for a moment) is left,
 * as the render matters more than its progress. `flush` waits for what was sent.
 */
export function progressReports(report: ReportProgress, input: { productionId: string; attempt: number; onLost: (error: unknown) => void }) {
  const startedAt = new Date().toISOString();
  let sending = Promise.resolve();
  const send = (phase: Phase | null) => {
    sending = sending.then(() => report(input.productionId, { attempt: input.attempt, phase, startedAt })).catch(input.onLost);
  };
  return {
    phase: (phase: Phase) => send(phase),
    retryFollows: () => send(null),
    flush: () => sending,
  };
}
