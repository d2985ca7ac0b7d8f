import type { Client } from '@temporalio/client';
import { isTerminal } from '@vp/contracts';
import type { Db } from '@vp/db';
import type { Settled } from '@vp/gateway/fuzz';

type Retrying = Settled['retrying'][number];
import type { Arrival } from './receiver.ts';

/** What a chaos run ends with; the goals are on the right of each (see `verdicts`). */
export type ChaosFigures = {
  productions: number;
  byStage: Record<string, number>;
  /** Not in a final stage at the end. Goal: 0. */
  notTerminal: number;
  /** Productions with a charge in the ledger, delivered ones, and refunded ones. Goal: charged = delivered + refunded. */
  charged: number;
  delivered: number;
  refunded: number;
  /** Productions charged more than once, or refunded more than once. Goal: 0. */
  doubleCharges: number;
  doubleRefunds: number;
  /** Delivered without a charge, or charged and refunded yet delivered. Goal: 0. */
  ledgerMismatches: string[];
  /** Webhook deliveries by status (one per event and endpoint). Goal: all succeeded. */
  deliveries: Record<string, number>;
  /** Requests the receiver had; succeeded deliveries that never arrived (goal: 0). */
  arrivals: number;
  missing: number;
  /**
   * Events that arrived at one endpoint more than once: sent again because the answer to a send
   * was lost (its worker SIGKILLed before recording it, or the answer later than
   * WEBHOOK_TIMEOUT_MS). No sender can tell such a send from one that never arrived, which is
   * why receivers dedupe on `Service-Event-Id`; what the goals hold is that nothing is sent once
   * its answer was recorded, and that a send is repeated only after a retry's wait.
   */
  resentEvents: number;
  /** Requests that arrived after their delivery's success was recorded. Goal: 0. */
  sentAfterRecorded: number;
  /** Repeats that arrived sooner than `minRepeatGapMs` after the one before: two sends at once. Goal: 0. */
  hastyRepeats: number;
  minRepeatGapMs: number;
  /** Open production workflows (goal: 0) and open workflows retrying a step (goal: 0). */
  openProductions: number;
  retrying: Retrying[];
  kills: { worker: number; renderWorker: number };
  greenlightRetries: number;
  seconds: number;
};

/** The ledger's and the read model's side of a run over `ids`. */
export async function ledgerFigures(db: Db, ids: string[]) {
  const rows = await db.production.findMany({ where: { id: { in: ids } }, select: { id: true, stage: true } });
  const entries = await db.creditEntry.findMany({ where: { productionId: { in: ids } }, select: { productionId: true, kind: true } });
  const count = (kind: string) => {
    const per = new Map<string, number>();
    for (const e of entries) if (e.kind === kind) per.set(e.productionId!, (per.get(e.productionId!) ?? 0) + 1);
    return per;
  };
  const charges = count('charge');
  const refunds = count('refund');
  const byStage: Record<string, number> = {};
  for (const row of rows) byStage[row.stage] = (byStage[row.stage] ?? 0) + 1;
  const ledgerMismatches: string[] = [];
  for (const row of rows) {
    const charged = charges.has(row.id);
    const refunded = refunds.has(row.id);
    if (row.stage === 'delivered' && (!charged || refunded)) ledgerMismatches.push(`${row.id} delivered, charged ${charges.get(row.id) ?? 0}, refunded ${refunds.get(row.id) ?? 0}`);
    if (refunded && !charged) ledgerMismatches.push(`${row.id} refunded without a charge`);
    if (charged && !refunded && row.stage !== 'delivered') ledgerMismatches.push(`${row.id} ${row.stage}, charged and not refunded`);
  }
  return {
    productions: rows.length, byStage, notTerminal: rows.filter((r) => !isTerminal(r.stage)).length,
    charged: charges.size, delivered: byStage.delivered ?? 0, refunded: refunds.size,
    doubleCharges: [...charges.values()].filter((n) => n > 1).length,
    doubleRefunds: [...refunds.values()].filter((n) => n > 1).length,
    ledgerMismatches,
  };
}

/**
 * The webhooks' side: deliveries as recorded, and what the receiver had. `minRepeatGapMs` is the
 * shortest wait before a send is repeated (the first retry's; a lost claim lapses later still).
 */
export async function webhookFigures(
  db: Db, ids: string[], arrivals: Arrival[], endpointPath: (endpointId: string) => string, minRepeatGapMs: number,
) {
  const deliveries = await db.webhookDelivery.findMany({
    where: { event: { productionId: { in: ids } } }, select: { status: true, eventId: true, endpointId: true, deliveredAt: true },
  });
  const byStatus: Record<string, number> = {};
  for (const d of deliveries) byStatus[d.status] = (byStatus[d.status] ?? 0) + 1;
  const recorded = deliveries.map((d) => ({ ...d, path: endpointPath(d.endpointId) }));
  return { deliveries: byStatus, ...arrivalFigures(recorded, arrivals, minRepeatGapMs) };
}

export type RecordedDelivery = { path: string; eventId: string; status: string; deliveredAt: Date | null };

/** The receiver's arrivals held against the deliveries as recorded: see `ChaosFigures`. */
export function arrivalFigures(deliveries: RecordedDelivery[], arrivals: Arrival[], minRepeatGapMs: number) {
  // Each endpoint's arrivals of each event, in the order they came.
  const arrived = new Map<string, number[]>();
  for (const a of [...arrivals].sort((x, y) => x.at - y.at)) {
    const key = `${a.path} ${a.eventId}`;
    const times = arrived.get(key) ?? [];
    times.push(a.at);
    arrived.set(key, times);
  }
  let sentAfterRecorded = 0;
  let missing = 0;
  for (const d of deliveries) {
    const times = arrived.get(`${d.path} ${d.eventId}`) ?? [];
    if (d.status === 'succeeded' && times.length === 0) missing++;
    if (d.deliveredAt) sentAfterRecorded += times.filter((at) => at > d.deliveredAt!.getTime()).length;
  }
  let hastyRepeats = 0;
  for (const times of arrived.values()) times.slice(1).forEach((at, i) => { if (at - times[i]! < minRepeatGapMs) hastyRepeats++; });
  return {
    arrivals: arrivals.length, missing, sentAfterRecorded, hastyRepeats, minRepeatGapMs,
    resentEvents: [...arrived.values()].filter((times) => times.length > 1).length,
  };
}

/** Production workflows of the run still open. */
export async function openProductionWorkflows(client: Client, productionsQueue: string): Promise<number> {
  let open = 0;
  for await (const execution of client.workflow.list({ query: `ExecutionStatus = "Running" AND WorkflowType = "productionWorkflow"` })) {
    if (execution.taskQueue === productionsQueue) open++;
  }
  return open;
}

/** Each goal, with whether the figures meet it. */
export function verdicts(f: ChaosFigures): [string, boolean][] {
  return [
    [`every production in a final stage (${f.notTerminal} not)`, f.notTerminal === 0],
    [`charges = delivered + refunded (${f.charged} = ${f.delivered} + ${f.refunded})`, f.charged === f.delivered + f.refunded && f.ledgerMismatches.length === 0],
    [`0 double charges (${f.doubleCharges}; double refunds ${f.doubleRefunds})`, f.doubleCharges === 0 && f.doubleRefunds === 0],
    [`0 events sent again once their delivery was recorded (${f.sentAfterRecorded}), none twice within ${f.minRepeatGapMs} ms (${f.hastyRepeats})`, f.sentAfterRecorded === 0 && f.hastyRepeats === 0],
    [`every delivery succeeded and arrived (${JSON.stringify(f.deliveries)}, ${f.missing} missing)`, Object.keys(f.deliveries).every((s) => s === 'succeeded') && f.missing === 0],
    [`0 workflows stuck (${f.openProductions} production workflows open, ${f.retrying.length} retrying a step)`, f.openProductions === 0 && f.retrying.length === 0],
  ];
}

export function formatFigures(f: ChaosFigures): string {
  const stages = Object.entries(f.byStage).map(([stage, n]) => `${stage} ${n}`).join(', ');
  return [
    `  productions         ${f.productions} in ${f.seconds.toFixed(0)} s (${stages}); greenlights tried again ${f.greenlightRetries} times`,
    `  SIGKILLs            ${f.kills.worker + f.kills.renderWorker} (worker ${f.kills.worker}, render worker ${f.kills.renderWorker})`,
    `  ledger              ${f.charged} charged = ${f.delivered} delivered + ${f.refunded} refunded; double charges ${f.doubleCharges}, double refunds ${f.doubleRefunds}`,
    `  webhooks            ${f.arrivals} requests arrived; deliveries ${JSON.stringify(f.deliveries)}; missing ${f.missing}; sent after recorded ${f.sentAfterRecorded}`,
    `                      events resent after a lost answer ${f.resentEvents} (receivers dedupe on Service-Event-Id); repeats within ${f.minRepeatGapMs} ms ${f.hastyRepeats}`,
    `  Temporal            open production workflows ${f.openProductions}; retrying a step ${f.retrying.length}`,
    ...f.ledgerMismatches.map((m) => `  mismatch: ${m}`),
    ...f.retrying.map((r) => `  retrying: ${r.workflowId} (${r.type}): ${r.why}`),
  ].join('\n');
}
