import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { RecipientRefused } from '@vp/mail';

const RECORD_TRIES = 3;
const RECORD_RETRY_MS = 1000;

/**
 * A table that records one message's send to each address (`link_emails`, `notice_emails`):
 * a row per message and address with its status and the activity try that claimed it.
 */
export interface SendLedger {
  createMany(args: { data: object[]; skipDuplicates: true }): Promise<{ count: number }>;
  updateMany(args: { where: object; data: object }): Promise<{ count: number }>;
  count(args: { where: object }): Promise<number>;
}

/**
 * A Prisma delegate of such a table as a ledger: the tables share the ledger's columns, but
 * Prisma's generic signatures do not type-check against one interface.
 */
export function sendLedger(delegate: { createMany: unknown; updateMany: unknown; count: unknown }): SendLedger {
  return delegate as SendLedger;
}

export type SendEachInput = {
  ledger: SendLedger;
  /** The columns that name the message in the ledger: the production and its pitch version or notice kind. */
  message: object;
  /** Lower-cased addresses. */
  recipients: string[];
  /** The activity's try (1, 2, …): a claim an earlier try left `sending` is taken over. */
  attempt: number;
  /**
   * Called before each recipient and every `heartbeatEveryMs` (20 s) while one is sent (a slow
   * server may take minutes): a try that stops reporting (a worker killed) is given up on soon.
   */
  heartbeat?: () => void;
  heartbeatEveryMs?: number;
  /** Aborted when nobody else should be sent the message. */
  signal?: AbortSignal;
  send(email: string): Promise<void>;
  /** Names the message in the error that fails the try: "Link e-mails". */
  what: string;
};

/**
 * Sends a message to each recipient once, across the activity's retries: a recipient is claimed
 * in the ledger before the send and recorded after, so a retry sends only what is not recorded as
 * sent. A try that died mid-send (a worker killed) left its claim `sending`: the next try sends
 * that one again (an SMTP send cannot be made exactly-once), under the same Message-ID, which
 * clients go by to show one. A try that timed out but still runs stops once a later one has
 * claimed anyone, and its records never overwrite that try's. An address the mail server refuses
 * for good is recorded `refused` and not tried again; other failures fail the try, to be retried.
 */
export async function sendToEach(input: SendEachInput): Promise<{ sent: number }> {
  const { ledger, attempt } = input;
  let sent = 0;
  const failures: string[] = [];
  for (const email of input.recipients) {
    if (input.signal?.aborted) break;
    input.heartbeat?.();
    const key = { ...input.message, email };
    if (await takenOver(ledger, input.message, attempt)) break;
    if (!(await claim(ledger, key, attempt))) continue;
    const beating = input.heartbeat && setInterval(input.heartbeat, input.heartbeatEveryMs ?? 20_000);
    try {
      await input.send(email);
    } catch (error) {
      const reason = (error as Error).message;
      const refused = error instanceof RecipientRefused;
      await ledger.updateMany({ where: { ...key, attempt }, data: { status: refused ? 'refused' : 'failed', error: reason.slice(0, 1000) } });
      if (!refused) failures.push(`${email}: ${reason}`);
      continue;
    } finally {
      clearInterval(beating);
    }
    await recordSent(ledger, key, attempt);
    sent += 1;
  }
  if (failures.length) throw new Error(`${input.what} failed for ${failures.join('; ')}`);
  return { sent };
}

/** A Message-ID part of one message to one address, the same on every try, naming no address. */
export function messageIdFor(message: string, email: string): string {
  return `${message}-${createHash('sha256').update(email).digest('hex').slice(0, 16)}`;
}

/**
 * Claims a recipient for this try: a new row, one whose send failed, or one an earlier try left
 * `sending`. Temporal starts a try once the one before has ended or timed out, so that claim is
 * abandoned (a timed-out try still running stops at its next claim: `takenOver`).
 */
async function claim(ledger: SendLedger, key: object, attempt: number): Promise<boolean> {
  const created = await ledger.createMany({ data: [{ ...key, status: 'sending', attempt }], skipDuplicates: true });
  if (created.count) return true;
  const retaken = await ledger.updateMany({
    where: { ...key, OR: [{ status: 'failed' }, { status: 'sending', attempt: { lt: attempt } }] },
    data: { status: 'sending', attempt },
  });
  return retaken.count > 0;
}

/** Whether a later try has claimed a recipient of this message: this one was given up on. */
async function takenOver(ledger: SendLedger, message: object, attempt: number): Promise<boolean> {
  return (await ledger.count({ where: { ...message, attempt: { gt: attempt } } })) > 0;
}

/**
 * Records a send, unless a later try has taken the recipient over, trying a few times over a
 * database's short stumble: once this try has ended, an unrecorded send is made again by the next.
 */
async function recordSent(ledger: SendLedger, key: object, attempt: number): Promise<void> {
  for (let tries = 1; ; tries += 1) {
    try {
      await ledger.updateMany({ where: { ...key, attempt }, data: { status: 'sent', sentAt: new Date(), error: null } });
      return;
    } catch (error) {
      if (tries === RECORD_TRIES) throw error;
      await sleep(RECORD_RETRY_MS);
    }
  }
}
