import { describe, expect } from 'vitest';
import { PHASES, QueueStatus } from '@vp/contracts';
import { test, waitFor } from '@vp/testing';
import { productionRenderingInChild } from './render-in-child.ts';

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

describe('a render worker stopped mid-render whose render outlasts its grace time', () => {
  test('counts the stopped render as a failed try: it is tried again elsewhere, delivered and charged once', async ({ database }) => {
    const { db } = database;
    const scene = await productionRenderingInChild(database, {
      heartbeatTimeoutMs: 10_000, durationMs: 30_000, childEnv: { RENDER_SHUTDOWN_GRACE_MS: '500' },
    });
    const { read, production } = scene;
    try {
      process.kill(scene.child.pid!, 'SIGTERM');
      expect(await scene.exited).toEqual([0, null]);

      await scene.renderElsewhere();
      const seen: QueueStatus[] = [];
      const exports = new Set<string>();
      await waitFor(async () => {
        const row = await read();
        if (row.queue) seen.push(QueueStatus.parse(row.queue));
        for (const made of await db.export.findMany({ where: { projectId: row.projectId! } })) exports.add(made.status);
        return row.stage === 'delivered';
      }, { what: 'the delivery', timeoutMs: 180_000, intervalMs: 50 });

      expect(await read()).toMatchObject({ stage: 'delivered', creditsCharged: 30, error: null, queue: null });
      expect(await db.creditEntry.count({ where: { productionId: production.id, kind: 'charge' } })).toBe(1);
      // The try said it would be retried, and its export was never marked failed.
      expect(seen.some((q) => q.retrying && q.lastProgress?.endsWith('(Try 2 of 3.)'))).toBe(true);
      expect([...exports].sort()).toEqual(['done', 'rendering']);
      const notes = await db.productionEvent.findMany({ where: { productionId: production.id, kind: 'note' }, orderBy: { seq: 'asc' } });
      expect(notes.map((n) => n.stepKey.split(':')[2]).at(-1)).toBe('2');
    } finally {
      await scene.close();
    }
  }, 300_000);
});
