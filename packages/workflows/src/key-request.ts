import { allHandlersFinished, condition, proxyLocalActivities, setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import { SEARCH_ATTRIBUTE_KEYS } from '@vp/contracts/temporal';
import {
  approveKeyRequestUpdate, claimKeyRequestUpdate, denyKeyRequestUpdate, KEY_STEP_RETRY, keyRequestStatusQuery, revokeClaimedKeyUpdate,
  type KeyRequestInput, type KeyRequestOutcome, type KeyRequestStatus, type KeyRequestSteps,
} from './key-request-definitions.ts';

/**
 * One device key request (spec: "Device key request"): pending until approved, refused or 10
 * minutes pass; an approved key is claimed by the first poll or expires, revoked, after the claim
 * window; a claimed key may be revoked by its poller until the grace after that window ends.
 * Every change is a step run under one lock, so an approval, a refusal, a claim and a timer that
 * meet are taken one after the other, and the second finds the first's outcome. The key and the
 * device code never come here: the steps seal and take the key in the database.
 */
export async function keyRequestWorkflow(input: KeyRequestInput): Promise<KeyRequestStatus> {
  const steps = proxyLocalActivities<KeyRequestSteps>({ startToCloseTimeout: input.stepTimeoutMs, retry: KEY_STEP_RETRY });
  const { requestId } = input;
  // Widened: handlers move it while the main path awaits.
  let status = 'pending' as KeyRequestStatus;
  // Answers after the request's lifetime, and claims after the claim window, are refused even
  // when they reach the workflow in the same moment as its timer.
  const pendingUntil = Date.now() + input.pendingMs;
  let approvedAt = 0;
  let busy = false;

  const move = (to: KeyRequestStatus) => {
    status = to;
    upsertSearchAttributes([{ key: SEARCH_ATTRIBUTE_KEYS.keyRequestStatus, value: to }]);
  };
  /** Runs `change` alone: no other step starts until it has finished. */
  async function exclusive<T>(change: () => Promise<T>): Promise<T> {
    await condition(() => !busy);
    busy = true;
    try {
      return await change();
    } finally {
      busy = false;
    }
  }
  /** A transition `from` → `to` by `step`, or, when the request is elsewhere, where it is. */
  const transition = (from: KeyRequestStatus, to: KeyRequestStatus, step: () => Promise<void>, allowed = () => true) =>
    exclusive(async (): Promise<KeyRequestOutcome> => {
      if (status !== from || !allowed()) return { applied: false, status };
      await step();
      move(to);
      return { applied: true, status };
    });
  const revokeDeadline = () => approvedAt + input.claimWindowMs + input.revokeGraceMs;

  setHandler(keyRequestStatusQuery, () => status);
  const inTime = () => Date.now() < pendingUntil;
  setHandler(approveKeyRequestUpdate, ({ accountId }) => transition('pending', 'approved', async () => {
    await steps.approveKeyRequest({ requestId, accountId });
    approvedAt = Date.now();
  }, inTime));
  setHandler(denyKeyRequestUpdate, ({ accountId }) => transition('pending', 'denied', () => steps.denyKeyRequest({ requestId, accountId }), inTime));
  setHandler(claimKeyRequestUpdate, () =>
    transition('approved', 'claimed', () => steps.claimKeyRequest({ requestId }), () => Date.now() < approvedAt + input.claimWindowMs));
  setHandler(revokeClaimedKeyUpdate, () =>
    transition('claimed', 'expired', () => steps.revokeClaimedKey({ requestId }), () => Date.now() <= revokeDeadline()));

  // pending → expired after its lifetime, unless an answer came (or is being recorded) first.
  if (!(await condition(() => status !== 'pending', untilMs(pendingUntil)))) {
    await transition('pending', 'expired', () => steps.expireKeyRequest({ requestId }));
  }
  // approved → expired (the key revoked, its plaintext cleared) when no poll claimed it in the window.
  if (status === 'approved' && !(await condition(() => status !== 'approved', untilMs(approvedAt + input.claimWindowMs)))) {
    await transition('approved', 'expired', () => steps.expireKeyRequest({ requestId }));
  }
  // claimed: its poller may still revoke it until the grace after the claim window ends.
  if (status === 'claimed') await condition(() => status !== 'claimed', untilMs(revokeDeadline()));
  await exclusive(() => steps.wipeSealedKey({ requestId }));
  await condition(allHandlersFinished);
  return status;
}

/** Milliseconds from now until `at` (workflow time), at least 1: a timer of 0 would never fire. */
const untilMs = (at: number) => Math.max(1, at - Date.now());
