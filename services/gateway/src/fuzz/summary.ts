import type { FuzzReport } from './run.ts';
import type { Settled } from './settle.ts';

/** A run's figures, as bench/README.md keeps them. */
export function summary(report: FuzzReport, settled: Settled): string {
  const statuses = new Map<number, number>();
  for (const { statuses: counts } of Object.values(report.byOperation)) {
    for (const [status, count] of Object.entries(counts)) statuses.set(Number(status), (statuses.get(Number(status)) ?? 0) + count);
  }
  const { valid, near, garbage } = report.byKind;
  return [
    `  requests            ${report.sent} to ${Object.keys(report.byOperation).length} operations in ${(report.elapsedMs / 1000).toFixed(1)} s (${valid} valid, ${near} near-valid, ${garbage} garbage)`,
    `  statuses            ${[...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`).join(' ')}`,
    `  latency             p50 ${report.latencyMs.p50} ms, p99 ${report.latencyMs.p99} ms, max ${report.latencyMs.max} ms`,
    `  5xx or no answer    ${report.serverErrors.length}`,
    `  over 5 s            ${report.slow.length}`,
    `  4xx not shaped      ${report.unshaped.length}`,
    `  open workflows      ${settled.open}, settled in ${(settled.settledMs / 1000).toFixed(1)} s; retrying a step: ${settled.retrying.length}`,
  ].join('\n');
}
