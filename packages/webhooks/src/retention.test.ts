import { describe, expect } from 'vitest';
import { sqlPool, type Db } from '@vp/db';
import { seedAccount, test } from '@vp/testing';
import { createPing } from './deliveries.ts';
import { insertEndpoint } from './endpoints.ts';
import { PRUNE_STATEMENTS, pruneDeliveryLog } from './retention.ts';
import { createSecretBox } from './secret.ts';

const box = createSecretBox('test-webhook-secret-key-0123456789abcdefgh');
const DAY = 24 * 60 * 60 * 1000;

/** A ping to a new endpoint, recorded `daysAgo` days ago and left `status`. */
async function pingFrom(db: Db, daysAgo: number, status: 'pending' | 'succeeded' | 'exhausted') {
  const { workspace } = await seedAccount(db);
  const { row } = await insertEndpoint(db, box, { workspaceId: workspace.id, url: 'https://hooks.example.com/in' });
  const delivery = await createPing(db, row, 'https://app.example.com');
  const createdAt = new Date(Date.now() - daysAgo * DAY);
  await db.webhookDelivery.update({ where: { id: delivery.id }, data: { status, createdAt } });
  await db.webhookEvent.update({ where: { id: delivery.eventId }, data: { createdAt } });
  return delivery;
}

describe('the delivery log', () => {
  test('keeps its retention period: older ended deliveries go, then the events left without any', async ({ database }) => {
    const { db } = database;
    const old = await Promise.all([pingFrom(db, 31, 'succeeded'), pingFrom(db, 45, 'exhausted')]);
    const recent = await pingFrom(db, 29, 'succeeded');
    // Never the case with the real schedule (it ends within hours), but a pending one is never removed.
    const stuck = await pingFrom(db, 40, 'pending');

    expect(await pruneDeliveryLog(db, new Date(Date.now() - 30 * DAY))).toEqual({ deliveries: 2, events: 2 });
    const left = await db.webhookDelivery.findMany({ where: { id: { in: [...old, recent, stuck].map((d) => d.id) } } });
    expect(left.map((d) => d.id).sort()).toEqual([recent.id, stuck.id].sort());
    expect(await db.webhookEvent.count({ where: { id: { in: old.map((d) => d.eventId) } } })).toBe(0);
    expect(await db.webhookEvent.count({ where: { id: { in: [recent.eventId, stuck.eventId] } } })).toBe(2);
    // Nothing more to remove.
    expect(await pruneDeliveryLog(db, new Date(Date.now() - 30 * DAY))).toEqual({ deliveries: 0, events: 0 });
  });

  test('finds what is past its period through an index, not by reading the whole log', async ({ database }) => {
    // The tables are small here, so the planner is told to avoid reading them whole where it can.
    const client = await sqlPool(database.db).connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL enable_seqscan = off');
      const plan = async (sql: string) =>
        JSON.stringify((await client.query(`EXPLAIN (FORMAT JSON) ${sql}`, [new Date(Date.now() - 30 * DAY), 1000])).rows);
      expect(await plan(PRUNE_STATEMENTS.deliveries)).toContain('"webhook_deliveries_created_at_idx"');
      expect(await plan(PRUNE_STATEMENTS.events)).toContain('"webhook_events_created_at_idx"');
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });
});
