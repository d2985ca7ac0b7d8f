import { describe, expect, it } from 'vitest';
import { loadConfig } from '@vp/config';
import { testSecrets } from '@vp/testing';
import { describeDuration, maxAttempts, retryDelay, shouldSwitchOff } from './schedule.ts';
import { webhookSettings } from './settings.ts';

describe('the delivery policy in production (defaults)', () => {
  const settings = webhookSettings(loadConfig(testSecrets));

  it('attempts at once, then retries after 30 s, 2 min, 10 min, 1 h and 6 h: 6 attempts', () => {
    expect(settings.retryScheduleMs).toEqual([30_000, 120_000, 600_000, 3_600_000, 21_600_000]);
    expect([1, 2, 3, 4, 5, 6].map((n) => retryDelay(settings, n))).toEqual([30_000, 120_000, 600_000, 3_600_000, 21_600_000, null]);
    expect(maxAttempts(settings)).toBe(6);
  });

  it('gives a receiver 15 s to answer', () => {
    expect(settings.timeoutMs).toBe(15_000);
  });

  it('sweeps the outbox every minute for deliveries no workflow took within a minute', () => {
    expect(loadConfig(testSecrets).webhooks.sweepIntervalMs).toBe(60_000);
  });

  it('keeps 30 days of delivery log, and all of it when told 0', () => {
    expect(loadConfig(testSecrets).webhooks.retentionMs).toBe(30 * 24 * 60 * 60 * 1000);
    expect(loadConfig({ ...testSecrets, WEBHOOK_RETENTION_DAYS: '0' }).webhooks.retentionMs).toBe(0);
  });

  it('switches an endpoint off at 10 failures in a row with no success for 24 hours', () => {
    expect(settings.disableAfterFailures).toBe(10);
    expect(settings.disableAfterMs).toBe(86_400_000);
    const since = new Date('2026-11-22T09:00:00Z');
    expect(shouldSwitchOff(settings, { consecutiveFailures: 10, quietSince: since }, new Date('2026-11-23T09:00:00Z'))).toBe(true);
    expect(shouldSwitchOff(settings, { consecutiveFailures: 9, quietSince: since }, new Date('2026-11-24T09:00:00Z'))).toBe(false);
    expect(shouldSwitchOff(settings, { consecutiveFailures: 50, quietSince: since }, new Date('2026-11-23T08:59:59Z'))).toBe(false);
  });
});

describe('the delivery policy is configuration', () => {
  it('reads a schedule and thresholds from the environment', () => {
    const settings = webhookSettings(loadConfig({
      ...testSecrets,
      WEBHOOK_RETRY_SCHEDULE_MS: '100, 200,400', WEBHOOK_TIMEOUT_MS: '500', WEBHOOK_DISABLE_AFTER_FAILURES: '3', WEBHOOK_DISABLE_AFTER_MS: '0',
    }));
    expect(settings.retryScheduleMs).toEqual([100, 200, 400]);
    expect(maxAttempts(settings)).toBe(4);
    expect(settings.timeoutMs).toBe(500);
    expect(shouldSwitchOff(settings, { consecutiveFailures: 3, quietSince: new Date() }, new Date())).toBe(true);
  });

  it('refuses a schedule that is not a list of milliseconds', () => {
    expect(() => loadConfig({ ...testSecrets, WEBHOOK_RETRY_SCHEDULE_MS: '30s,2m' })).toThrow(/WEBHOOK_RETRY_SCHEDULE_MS/);
  });

  it('words durations for the switch-off reason', () => {
    expect(describeDuration(86_400_000)).toBe('1 day');
    expect(describeDuration(7_200_000)).toBe('2 hours');
    expect(describeDuration(1500)).toBe('1500 ms');
  });
});
