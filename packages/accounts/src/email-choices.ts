import type { Caller } from '@vp/contracts';
import type { Db, EmailKind } from '@vp/db';

/** The e-mails a member gets about productions (DECISIONS: each member may turn each kind off). */
export const EMAIL_KINDS = ['pitch_ready', 'video_delivered', 'production_failed'] as const satisfies readonly EmailKind[];

/** Which kinds the caller receives (all, unless turned off). */
export async function emailChoices(db: Db, caller: Caller): Promise<Record<EmailKind, boolean>> {
  const off = new Set((await db.emailOptOut.findMany({ where: { accountId: caller.accountId }, select: { kind: true } })).map((o) => o.kind));
  return Object.fromEntries(EMAIL_KINDS.map((kind) => [kind, !off.has(kind)])) as Record<EmailKind, boolean>;
}

/** The caller receives exactly the kinds listed; the others are turned off. */
export async function chooseEmails(db: Db, caller: Caller, input: { wanted: readonly string[] }): Promise<void> {
  const off = EMAIL_KINDS.filter((kind) => !input.wanted.includes(kind));
  await db.$transaction([
    db.emailOptOut.deleteMany({ where: { accountId: caller.accountId, kind: { notIn: off } } }),
    db.emailOptOut.createMany({ data: off.map((kind) => ({ accountId: caller.accountId, kind })), skipDuplicates: true }),
  ]);
}

/** Whether an account wants e-mails of this kind: for the code that sends them. */
export async function wantsEmail(db: Db, accountId: string, kind: EmailKind): Promise<boolean> {
  return (await db.emailOptOut.count({ where: { accountId, kind } })) === 0;
}

/** The owners and editors of a workspace who want e-mails of this kind: who a production's e-mail goes to. */
export async function emailRecipients(db: Db, workspaceId: string, kind: EmailKind) {
  const members = await db.membership.findMany({
    where: { workspaceId, role: { in: ['owner', 'editor'] }, account: { emailOptOuts: { none: { kind } } } },
    include: { account: { select: { id: true, email: true, name: true } } },
    orderBy: { createdAt: 'asc' },
  });
  return members.map((m) => m.account);
}
