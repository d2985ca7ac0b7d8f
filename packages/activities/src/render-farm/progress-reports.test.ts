import { describe, expect, it } from 'vitest';
import type { RenderProgress } from '@vp/workflows/definitions';
import { progressReports } from './progress-reports.ts';

describe('a render try\'s progress reports', () => {
  it('go to the production\'s workflow in the order reported, each with the try and when it started', async () => {
    const sent: [string, RenderProgress][] = [];
    const reports = progressReports(async (id, report) => void sent.push([id, report]), { productionId: 'p1', attempt: 2, onLost: () => {} });
    reports.phase('preparing');
    reports.phase('building');
    reports.retryFollows();
    await reports.flush();
    expect(sent.map(([id, { attempt, phase }]) => [id, attempt, phase])).toEqual([['p1', 2, 'preparing'], ['p1', 2, 'building'], ['p1', 2, null]]);
    expect(new Set(sent.map(([, report]) => report.startedAt)).size).toBe(1);
  });

  it('one that cannot be sent (Temporal away for a moment) is said lost, and the next go on: the render is never held by its progress', async () => {
    const sent: (string | null)[] = [];
    const lost: unknown[] = [];
    let calls = 0;
    const reports = progressReports(async (_id, report) => {
      if (calls++ === 0) throw new Error('UNAVAILABLE');
      sent.push(report.phase);
    }, { productionId: 'p1', attempt: 1, onLost: (error) => lost.push(error) });
    reports.phase('preparing');
    reports.phase('planning');
    await expect(reports.flush()).resolves.toBeUndefined();
    expect(sent).toEqual(['planning']);
    expect(lost).toEqual([new Error('UNAVAILABLE')]);
  });
});
