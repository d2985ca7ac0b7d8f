/** The parts of the configuration that decide retries and switch-off. */
export type DeliveryPolicy = {
  /** Delays before each retry; attempt 1 is at once, so there are `length + 1` attempts. */
  retryScheduleMs: readonly number[];
  disableAfterFailures: number;
  disableAfterMs: number;
};

/** How long to wait after failed attempt `attempt` (1-based) before the next; null when it was the last. */
export function retryDelay(policy: Pick<DeliveryPolicy, 'retryScheduleMs'>, attempt: number): number | null {
  return policy.retryScheduleMs[attempt - 1] ?? null;
}

export function maxAttempts(policy: Pick<DeliveryPolicy, 'retryScheduleMs'>): number {
  return policy.retryScheduleMs.length + 1;
}

/**
 * An endpoint is switched off when its run of failures reaches the threshold and no attempt has
 * succeeded for the whole window: since its last success or, when it has none since, since it was
 * created or switched back on (`quietSince`, the later of the two). A run of failures that begins
 * long after the last success may end it at once; one switched back on has the whole window again.
 */
export function shouldSwitchOff(
  policy: Pick<DeliveryPolicy, 'disableAfterFailures' | 'disableAfterMs'>,
  endpoint: { consecutiveFailures: number; quietSince: Date },
  now: Date,
): boolean {
  if (endpoint.consecutiveFailures < policy.disableAfterFailures) return false;
  return now.getTime() - endpoint.quietSince.getTime() >= policy.disableAfterMs;
}

/** Human words for a duration in the switch-off reason. */
export function describeDuration(ms: number): string {
  const units: [number, string][] = [[86_400_000, 'day'], [3_600_000, 'hour'], [60_000, 'minute'], [1000, 'second']];
  for (const [size, name] of units) {
    if (ms >= size && ms % size === 0) return `${ms / size} ${name}${ms / size === 1 ? '' : 's'}`;
  }
  return `${ms} ms`;
}
