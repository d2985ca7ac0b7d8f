import { sqlPool, type Db } from '@vp/db';

const BATCH = 1000;

/** The pruning's two statements, each removing up to `$2` rows created before `$1`. */
export const PRUNE_STATEMENTS = {
  deliveries: `DELETE FROM webhook_deliveries WHERE id IN (
     SELECT id FROM webhook_deliveries WHERE status <> 'pending' AND created_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)`,
  events: `DELETE FROM webhook_events WHERE id IN (
     SELECT e.id FROM webhook_events e
     WHERE e.created_at < $1 AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id)
     LIMIT $2 FOR UPDATE SKIP LOCKED)`,
};

/**
 * Removes the delivery log from before `before`: deliveries that have ended (succeeded or
 * exhausted), then the events left without any. A batch at a time, skipping rows another pruner
 * holds, so that a backlog never holds long locks and two workers pruning at once do not wait on
 * each other. A pending delivery stays: none lasts as long as a retention period (the retry
 * schedule ends within hours).
 */
export async function pruneDeliveryLog(db: Db, before: Date): Promise<{ deliveries: number; events: number }> {
  const pool = sqlPool(db);
  const inBatches = async (sql: string) => {
    let removed = 0;
    for (;;) {
      const { rowCount } = await pool.query(sql, [before, BATCH]);
      removed += rowCount ?? 0;
      if ((rowCount ?? 0) < BATCH) return removed;
    }
  };
  const deliveries = await inBatches(PRUNE_STATEMENTS.deliveries);
  const events = await inBatches(PRUNE_STATEMENTS.events);
  return { deliveries, events };
}

/** How often a worker prunes the delivery log. */
export const PRUNE_EVERY_MS = 60 * 60 * 1000;
