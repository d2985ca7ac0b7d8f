import { Context } from '@temporalio/activity';
import type { ProgressReport } from '@vp/render';

/**
 * Heartbeats for a render: on every phase and progress report, and every second between them
 * (mixing and reviewing report rarely). Each heartbeat also brings back a cancellation. They go on
 * while a child process hangs: `stallWatchdog` is what ends a render that stopped moving.
 */
export function renderHeartbeats() {
  const context = Context.current();
  let last: Pick<ProgressReport, 'phase' | 'overall'> | null = null;
  const timer = setInterval(() => context.heartbeat(last), 1000);
  return {
    report(progress: Pick<ProgressReport, 'phase' | 'overall'>) {
      last = { phase: progress.phase, overall: Math.round(progress.overall * 1000) / 1000 };
      context.heartbeat(last);
    },
    stop: () => clearInterval(timer),
  };
}
