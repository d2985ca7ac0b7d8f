import { describe, expect } from 'vitest';
import { PHASES } from '@vp/contracts';
import { test, waitFor } from '@vp/testing';
import { productionRenderingInChild } from './testing/render-in-child.ts';

describe('a render worker stopped mid-render (SIGTERM, as a deploy stops it)', () => {
  test('finishes the render it has before it exits: the try is not lost', async ({ database }) => {
    // Long enough that its render outlasts the 10 s the worker used to wait.
    const scene = await productionRenderingInChild(database, { heartbeatTimeoutMs: 10_000, durationMs: 30_000 });
    const { read, production } = scene;
    try {
      process.kill(scene.child.pid!, 'SIGTERM');
      // It drains by itself: no new work, the render it has to the end.
      expect(await scene.exited).toEqual([0, null]);
      expect(scene.output.join('')).toContain('stopped');

      // Another render worker runs what is left of the render workflow; it has no render to try again.
      await scene.renderElsewhere();
      await waitFor(async () => (await read()).stage === 'delivered', { what: 'the delivery', timeoutMs: 120_000, intervalMs: 100 });
      expect(await read()).toMatchObject({ stage: 'delivered', creditsCharged: 30, error: null, queue: null });
      const notes = await database.db.productionEvent.findMany({ where: { productionId: production.id, kind: 'note' }, orderBy: { seq: 'asc' } });
      expect(notes.map((n) => (n.payload as { phase: string }).phase)).toEqual([...PHASES]);
      expect(notes.every((n) => n.stepKey.split(':')[2] === '1')).toBe(true);
    } finally {
      await scene.close();
    }
  }, 300_000);
});
