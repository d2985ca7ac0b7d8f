import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { emailRecipients } from '@vp/accounts';
import type { Db } from '@vp/db';
import { noticeEmail, type NoticeEmailInput } from '@vp/links';
import { RecipientRefused, type Mailer } from '@vp/mail';
import { productionPageUrl } from '@vp/productions';

const RECORD_TRIES = 3;
const RECORD_RETRY_MS = 1000;

export type NoticeKind = 'video_delivered' | 'production_failed';

export type NoticeEmailDeps = {
  db: Db; mailer: Mailer; appUrl: string;
  /** The activity's try (1, 2, …): a claim an earlier try left `sending` is taken over. */
  attempt: number;
  /** Called before each recipient and every `heartbeatEveryMs` (20 s) while one is sent. */
  heartbeat?: () => void;
  heartbeatEveryMs?: number;
};

/**
 * Tells each owner and editor who has not turned the kind off that a production was delivered
 * or failed, linking to its page. As the pitch's link e-mails: a recipient is claimed in
 * `notice_emails` before the send and recorded after, under a Message-ID of its own, so a
 * retried activity sends only what is not recorded as sent (an SMTP send cannot be made
 * exactly-once: a try killed mid-send sends that one again, under the same Message-ID). An
 * address the mail server refuses for good is recorded `refused` and not tried again.
 */
export async function sendNoticeEmails(deps: NoticeEmailDeps, input: { productionId: string; kind: NoticeKind }): Promise<{ sent: number }> {
  const { db } = deps;
  const about = await noticeAbout(db, deps.appUrl, input);
  if (!about) return { sent: 0 };
  let sent = 0;
  const failures: string[] = [];
  for (const account of await emailRecipients(db, about.workspaceId, input.kind)) {
    deps.heartbeat?.();
    const email = account.email.toLowerCase();
    const key = { productionId: input.productionId, kind: input.kind, email };
    if (await takenOver(db, input, deps.attempt)) break;
    if (!(await claim(db, key, deps.attempt))) continue;
    const id = `${input.kind}-${input.productionId}-${createHash('sha256').update(email).digest('hex').slice(0, 16)}`;
    const beating = deps.heartbeat && setInterval(deps.heartbeat, deps.heartbeatEveryMs ?? 20_000);
    try {
      await deps.mailer.send({ id, to: email, ...noticeEmail(about.message) });
    } catch (error) {
      const reason = (error as Error).message;
      const refused = error instanceof RecipientRefused;
      await db.noticeEmail.updateMany({ where: { ...key, attempt: deps.attempt }, data: { status: refused ? 'refused' : 'failed', error: reason.slice(0, 1000) } });
      if (!refused) failures.push(`${email}: ${reason}`);
      continue;
    } finally {
      clearInterval(beating);
    }
    await recordSent(db, key, deps.attempt);
    sent += 1;
  }
  // Failed recipients are tried again by the activity's retry; sent ones are not.
  if (failures.length) throw new Error(`Notice e-mails failed for ${failures.join('; ')}`);
  return { sent };
}

/** What the notice says, read from the production as it ended; null when it did not end so. */
async function noticeAbout(db: Db, appUrl: string, input: { productionId: string; kind: NoticeKind }) {
  const production = await db.production.findUnique({
    where: { id: input.productionId },
    include: { workspace: { select: { name: true } }, pitches: { orderBy: { version: 'desc' }, take: 1, select: { pitch: true } } },
  });
  const ended = input.kind === 'video_delivered' ? 'delivered' : 'failed';
  if (!production || production.stage !== ended) return null;
  const title = (production.pitches[0]?.pitch as { title?: string } | undefined)?.title ?? (production.brief as { intent: string }).intent;
  const common = { workspaceName: production.workspace.name, title, pageUrl: productionPageUrl(appUrl, production.id) };
  let message: NoticeEmailInput;
  if (input.kind === 'video_delivered') {
    const { shareUrl } = production.delivery as { shareUrl: string };
    message = { ...common, kind: input.kind, shareUrl, creditsCharged: production.creditsCharged };
  } else {
    const refund = await db.creditEntry.findFirst({ where: { productionId: production.id, kind: 'refund' }, select: { amount: true } });
    message = { ...common, kind: input.kind, reason: production.error ?? 'The production could not be finished.', creditsRefunded: refund?.amount ?? 0 };
  }
  return { workspaceId: production.workspaceId, message };
}

type Recipient = { productionId: string; kind: NoticeKind; email: string };

/** Claims a recipient for this try: a new row, one whose send failed, or one an earlier try left `sending`. */
async function claim(db: Db, key: Recipient, attempt: number): Promise<boolean> {
  const created = await db.noticeEmail.createMany({ data: [{ ...key, status: 'sending', attempt }], skipDuplicates: true });
  if (created.count) return true;
  const retaken = await db.noticeEmail.updateMany({
    where: { ...key, OR: [{ status: 'failed' }, { status: 'sending', attempt: { lt: attempt } }] },
    data: { status: 'sending', attempt },
  });
  return retaken.count > 0;
}

/** Whether a later try has claimed a recipient of this notice: this one was given up on. */
async function takenOver(db: Db, notice: { productionId: string; kind: NoticeKind }, attempt: number): Promise<boolean> {
  return (await db.noticeEmail.count({ where: { ...notice, attempt: { gt: attempt } } })) > 0;
}

/** Records a send, unless a later try took the recipient over, over a database's short stumble. */
async function recordSent(db: Db, key: Recipient, attempt: number): Promise<void> {
  for (let tries = 1; ; tries += 1) {
    try {
      await db.noticeEmail.updateMany({ where: { ...key, attempt }, data: { status: 'sent', sentAt: new Date(), error: null } });
      return;
    } catch (error) {
      if (tries === RECORD_TRIES) throw error;
      await sleep(RECORD_RETRY_MS);
    }
  }
}
