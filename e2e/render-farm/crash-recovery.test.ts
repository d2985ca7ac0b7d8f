import { describe, expect } from 'vitest';
import { createBlobStore } from '@vp/blobs';
import { PHASES, QueueStatus } from '@vp/contracts';
import { balance } from '@vp/ledger';
import { test, waitFor } from '@vp/testing';
import { productionRenderingInChild } from './render-in-child.ts';

describe('a render worker killed mid-render', () => {
  test('loses nothing: the try is retried on another worker, and the production is delivered and charged once', async ({ database }) => {
    const { db } = database;
    // A render silent for 3 s is presumed dead.
    const scene = await productionRenderingInChild(database, { heartbeatTimeoutMs: 3000, durationMs: 5000 });
    const { read, production, account, config } = scene;
    try {
      // Mid-render: frames are being drawn and encoded when the machine dies.
      process.kill(scene.child.pid!, 'SIGKILL');
      expect((await scene.exited)[1]).toBe('SIGKILL');
      expect((await read()).stage).toBe('making');

      // Another render worker takes the retried try.
      await scene.renderElsewhere();
      const seen: QueueStatus[] = [];
      await waitFor(async () => {
        const row = await read();
        if (row.queue) seen.push(QueueStatus.parse(row.queue));
        return row.stage === 'delivered';
      }, { what: 'the delivery', timeoutMs: 120_000, intervalMs: 100 });

      const row = await read();
      expect(row).toMatchObject({ stage: 'delivered', creditsCharged: 5, error: null, queue: null });
      expect(await db.creditEntry.count({ where: { productionId: production.id, kind: 'charge' } })).toBe(1);
      expect(await balance(db, account.id)).toBe(95);
      // The retried try said so in the queue status.
      const retried = seen.filter((q) => q.retrying);
      expect(retried.length).toBeGreaterThan(0);
      expect(retried.every((q) => q.lastProgress?.endsWith('(Try 2 of 3.)'))).toBe(true);

      // One note per phase per try: the first try got as far as building, the second to the end.
      const notes = await db.productionEvent.findMany({ where: { productionId: production.id, kind: 'note' }, orderBy: { seq: 'asc' } });
      expect(notes.map((n) => (n.payload as { phase: string }).phase)).toEqual(['preparing', 'planning', 'building', ...PHASES]);
      expect(notes.map((n) => n.stepKey.split(':')[2])).toEqual(['1', '1', '1', '2', '2', '2', '2', '2', '2']);
      expect(await db.productionEvent.count({ where: { productionId: production.id, kind: 'delivered' } })).toBe(1);

      // One project, one version, one export; its files are in the blob store.
      const delivery = row.delivery as { exportId: string; projectId: string };
      expect(await db.projectVersion.count({ where: { projectId: delivery.projectId } })).toBe(1);
      const made = await db.export.findMany({ where: { projectId: delivery.projectId } });
      expect(made).toEqual([expect.objectContaining({ id: delivery.exportId, status: 'done' })]);
      const blobs = createBlobStore(config.blobs);
      expect((await blobs.stat(made[0]!.videoKey!))?.size).toBeGreaterThan(10_000);
    } finally {
      await scene.close();
    }
  }, 240_000);
});

describe('a render worker frozen past its heartbeat timeout, then thawed', () => {
  test('leaves the export to the try that replaced it: it never reads failed while that try renders', async ({ database }) => {
    const { db } = database;
    const scene = await productionRenderingInChild(database, { heartbeatTimeoutMs: 3000, durationMs: 5000 });
    const { read } = scene;
    try {
      // Frozen mid-render (a machine cut off, a long pause): the server gives its try up.
      process.kill(scene.child.pid!, 'SIGSTOP');
      await scene.renderElsewhere();
      await waitFor(async () => {
        const row = await read();
        return row.queue !== null && QueueStatus.parse(row.queue).retrying;
      }, { what: 'the next try on another worker', timeoutMs: 60_000, intervalMs: 50 });

      // Thawed while that try renders: it hears its try was given up, and stops.
      process.kill(scene.child.pid!, 'SIGCONT');
      const { projectId } = await read();
      const seen = new Set<string>();
      await waitFor(async () => {
        for (const made of await db.export.findMany({ where: { projectId: projectId! } })) seen.add(made.status);
        return (await read()).stage === 'delivered';
      }, { what: 'the delivery', timeoutMs: 120_000, intervalMs: 20 });
      expect([...seen].sort()).toEqual(['done', 'rendering']);
      expect(await read()).toMatchObject({ stage: 'delivered', creditsCharged: 5, error: null });
    } finally {
      await scene.close();
    }
  }, 240_000);
});
