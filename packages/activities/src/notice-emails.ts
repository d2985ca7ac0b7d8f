import { emailRecipients } from '@vp/accounts';
import type { Db } from '@vp/db';
import { noticeEmail, type NoticeEmailInput } from '@vp/links';
import type { Mailer } from '@vp/mail';
import { productionPageUrl } from '@vp/productions';
import { messageIdFor, sendLedger, sendToEach } from './send-each.ts';

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
 * or failed, linking to its page; each once across retries (claimed in `notice_emails`: see `sendToEach`).
 */
export async function sendNoticeEmails(deps: NoticeEmailDeps, input: { productionId: string; kind: NoticeKind }): Promise<{ sent: number }> {
  const { db } = deps;
  const about = await noticeAbout(db, deps.appUrl, input);
  if (!about) return { sent: 0 };
  return sendToEach({
    ...deps, what: 'Notice e-mails',
    ledger: sendLedger(deps.db.noticeEmail),
    message: { productionId: input.productionId, kind: input.kind },
    recipients: (await emailRecipients(db, about.workspaceId, input.kind)).map((account) => account.email.toLowerCase()),
    send: (email) => deps.mailer.send({ id: messageIdFor(`${input.kind}-${input.productionId}`, email), to: email, ...noticeEmail(about.message) }),
  });
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
