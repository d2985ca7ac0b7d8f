import { PHASES, type Phase } from '@vp/contracts';

export type ProgressReport = { phase: Phase; fraction: number; overall: number };

/** Share of the whole render each phase takes, for `overall` progress. */
const WEIGHTS: Record<Phase, number> = { preparing: 0.1, planning: 0.04, building: 0.7, reviewing: 0.05, polishing: 0.08, exporting: 0.03 };

/** Announces phases in order, reports progress within them and times each one. */
export class PhaseTracker {
  readonly timings = Object.fromEntries(PHASES.map((phase) => [phase, 0])) as Record<Phase, number>;
  private phase: Phase | null = null;
  private started = 0;

  constructor(private readonly listeners: { onPhase?: (phase: Phase) => void; onProgress?: (progress: ProgressReport) => void }) {}

  enter(phase: Phase): void {
    this.stop();
    this.phase = phase;
    this.started = performance.now();
    this.listeners.onPhase?.(phase);
    this.progress(0);
  }

  progress(fraction: number): void {
    const phase = this.phase;
    if (!phase) return;
    const before = PHASES.slice(0, PHASES.indexOf(phase)).reduce((sum, p) => sum + WEIGHTS[p], 0);
    this.listeners.onProgress?.({ phase, fraction, overall: Math.min(1, before + WEIGHTS[phase] * fraction) });
  }

  /** Ends the timing of the current phase. */
  stop(): void {
    if (this.phase) this.timings[this.phase] = performance.now() - this.started;
  }
}
