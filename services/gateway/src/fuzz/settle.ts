import type { Client } from '@temporalio/client';

/** An open workflow that is trying a step again (or cannot rest). */
export type Retrying = { workflowId: string; type: string; why: string };

export type Settled = {
  /** Open workflows of the run, looked at once they rested. */
  open: number;
  /** How long they took to rest, after the last request. */
  settledMs: number;
  retrying: Retrying[];
};

type Look = { type: string; history: number; pending: string[] };

/**
 * Lets the open workflows of a run (those on task queues with `taskQueuePrefix`) settle, then
 * says which are still trying a step. Settled: no workflow's history grew for `quietMs`, longer
 * than a step's retries are apart (at most 10 s, a local activity's too, which shows only as
 * history) and than a workflow task's heartbeat. Retrying: an activity on its second attempt or
 * after a failure, or a history that never rested within `timeoutMs`.
 */
export async function settleWorkflows(client: Client, taskQueuePrefix: string, options: { quietMs?: number; timeoutMs?: number; pollMs?: number } = {}): Promise<Settled> {
  const { quietMs = 15_000, timeoutMs = 180_000, pollMs = 2000 } = options;
  const started = Date.now();
  let last = await lookAtAll(client, taskQueuePrefix);
  let quietSince = Date.now();
  while (Date.now() - quietSince < quietMs && Date.now() - started < timeoutMs) {
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    const now = await lookAtAll(client, taskQueuePrefix);
    if (changed(last, now)) quietSince = Date.now();
    last = now;
  }
  const restless = Date.now() - quietSince < quietMs;
  const retrying: Retrying[] = [];
  for (const [workflowId, look] of last) {
    for (const why of look.pending) retrying.push({ workflowId, type: look.type, why });
  }
  if (restless) {
    const again = await lookAtAll(client, taskQueuePrefix);
    for (const [workflowId, look] of again) {
      if (last.get(workflowId)?.history !== look.history) retrying.push({ workflowId, type: look.type, why: 'its history still grows' });
    }
  }
  return { open: last.size, settledMs: Date.now() - started, retrying };
}

async function lookAtAll(client: Client, prefix: string): Promise<Map<string, Look>> {
  const looks = new Map<string, Look>();
  for await (const execution of client.workflow.list({ query: 'ExecutionStatus = "Running"' })) {
    if (!execution.taskQueue.startsWith(prefix)) continue;
    const described = await client.workflow.getHandle(execution.workflowId, execution.runId).describe().catch(() => null);
    if (!described || described.status.name !== 'RUNNING') continue;
    const pending = (described.raw.pendingActivities ?? [])
      .filter((activity) => (activity.attempt ?? 1) > 1 || activity.lastFailure)
      .map((activity) => `${activity.activityType?.name ?? 'an activity'} is on attempt ${activity.attempt ?? 1}${activity.lastFailure?.message ? `, after: ${activity.lastFailure.message}` : ''}`);
    looks.set(execution.workflowId, { type: execution.type, history: described.historyLength, pending });
  }
  return looks;
}

function changed(before: Map<string, Look>, after: Map<string, Look>): boolean {
  if (before.size !== after.size) return true;
  for (const [id, look] of after) {
    const was = before.get(id);
    if (!was || was.history !== look.history || was.pending.join() !== look.pending.join()) return true;
  }
  return false;
}
