import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { describe, expect, inject } from 'vitest';
import { test, testSecrets } from '@vp/testing';
import { runChaos } from './chaos.ts';
import { formatFigures, verdicts } from './figures.ts';

/** The CI's share of bench/chaos (which runs 100; see bench/README.md). */
const PRODUCTIONS = 10;

describe('productions while the worker and the render worker are SIGKILLed at random moments', () => {
  test(`${PRODUCTIONS} of them: all end, each charged once and only if delivered or refunded, each event delivered once, no workflow stuck`, async ({ database }) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'vp-chaos-'));
    try {
      const figures = await runChaos({
        productions: PRODUCTIONS, concurrency: 5, killEveryMs: [4000, 10000], seed: 40,
        databaseUrl: database.url, temporalAddress: inject('temporalAddress'), workflowBundlePath: inject('workflowBundlePath'),
        dataDir, secrets: testSecrets, taskQueuePrefix: `chaos${randomBytes(4).toString('hex')}`, deadlineMs: 780_000,
        log: (line) => console.log(line),
      });
      console.log(formatFigures(figures));
      expect(figures.productions).toBe(PRODUCTIONS);
      expect(figures.kills.worker + figures.kills.renderWorker).toBeGreaterThanOrEqual(3);
      expect(verdicts(figures).filter(([, holds]) => !holds).map(([label]) => label)).toEqual([]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 900_000);
});
