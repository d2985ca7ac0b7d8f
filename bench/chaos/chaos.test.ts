import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { describe, expect, inject } from 'vitest';
import { test, testSecrets } from '@vp/testing';
import { runChaos } from './chaos.ts';
import { formatFigures, verdicts } from './figures.ts';

/**
 * The CI's share of bench/chaos (which runs 100; see bench/README.md). A kill every 5–12 s: the
 * full suite runs beside it, and a worker restarted every few seconds on a loaded 2-core machine
 * left too little time between kills for the 10 to end within the deadline.
 */
const PRODUCTIONS = 10;

describe('productions while the worker and the render worker are SIGKILLed at random moments', () => {
  test(`${PRODUCTIONS} of them: all end, each charged once and only if delivered or refunded, no event sent again once delivered, no workflow stuck`, async ({ database }) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'vp-chaos-'));
    try {
      const figures = await runChaos({
        productions: PRODUCTIONS, concurrency: 5, killEveryMs: [5000, 12000], seed: 40,
        databaseUrl: database.url, temporalAddress: inject('temporalAddress'), workflowBundlePath: inject('workflowBundlePath'),
        dataDir, secrets: testSecrets, taskQueuePrefix: `chaos${randomBytes(4).toString('hex')}`, deadlineMs: 1_200_000,
        log: (line) => console.log(line),
      });
      console.log(formatFigures(figures));
      expect(figures.productions).toBe(PRODUCTIONS);
      // A restart under load takes its time, and the next kill waits for it: at least two in the CI's run.
      expect(figures.kills.worker + figures.kills.renderWorker).toBeGreaterThanOrEqual(2);
      expect(verdicts(figures).filter(([, holds]) => !holds).map(([label]) => label)).toEqual([]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 1_320_000);
});
