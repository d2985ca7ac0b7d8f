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
 * An endpoint is switched off when its run of failures reaches the threshold and has lasted
 * the whole window: no attempt has succeeded for that long.
 */
export function shouldSwitchOff(
  policy: Pick<DeliveryPolicy, 'disableAfterFailures' | 'disableAfterMs'>,
  endpoint: { consecutiveFailures: number; failingSince: Date | null },
  now: Date,
): boolean {
  if (endpoint.consecutiveFailures < policy.disableAfterFailures || !endpoint.failingSince) return false;
  return now.getTime() - endpoint.failingSince.getTime() >= policy.disableAfterMs;
}

/** Human words for a duration in the switch-off reason. */
export function describeDuration(ms: number): string {
  const units: [number, string][] = [[86_400_000, 'day'], [3_600_000, 'hour'], [60_000, 'minute'], [1000, 'second']];
  for (const [size, name] of units) {
    if (ms >= size && ms % size === 0) return `${ms / size} ${name}${ms / size === 1 ? '' : 's'}`;
  }
  return `${ms} ms`;
}
