import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Pitch } from '@vp/contracts';
import type { Db } from '@vp/db';
import { linkExpiry, mintActionLinks, pitchEmail } from '@vp/links';
import { RecipientRefused, type Mailer } from '@vp/mail';
import { pitchMarkdown } from '@vp/pitch';
import { productionPageUrl } from '@vp/productions';

const RECORD_TRIES = 3;
const RECORD_RETRY_MS = 1000;

export type LinkEmailDeps = {
  db: Db; mailer: Mailer; linkSecret: string; appUrl: string; now?: () => Date;
  /** The activity's try (1, 2, …): a claim made by an earlier try that did not record a send is taken over. */
  attempt: number;
  /**
   * Called before each recipient and every `heartbeatEveryMs` (20 s) while one is sent (a slow
   * server may take minutes): a try that stops reporting (a worker killed) is given up on soon.
   */
  heartbeat?: () => void;
  heartbeatEveryMs?: number;
  /** Aborted once the pitch was answered (its workflow stops the sending): nobody else is sent the links. */
  signal?: AbortSignal;
};

/**
 * E-mails one pitch version's greenlight links to each owner and editor: a recipient is
 * claimed in `link_emails` before sending, so a retry sends only what is not recorded as sent.
 * A try that died mid-send (a worker killed) left its claim `sending`: the next try sends that
 * one again, under the same Message-ID (clients that go by it show one). A try that timed out
 * but still runs stops once a later one has claimed anyone, and its records never overwrite
 * that try's. Nothing is sent once the pitch was answered. An address the mail server refuses for
 * good is recorded `refused` and not tried again.
 */
export async function sendLinkEmails(deps: LinkEmailDeps, input: { productionId: string; pitchVersion: number }): Promise<{ sent: number }> {
  const { db } = deps;
  const production = await db.production.findUnique({
    where: { id: input.productionId },
    include: {
      pitches: { where: { version: input.pitchVersion } },
      // Owners and editors, but those who turned pitch e-mails off (on /account).
      workspace: { include: { memberships: { where: { role: { in: ['owner', 'editor'] }, account: { emailOptOuts: { none: { kind: 'pitch_ready' } } } }, include: { account: true } } } },
    },
  });
  const pitchRow = production?.pitches[0];
  if (!production || !pitchRow || production.stage !== 'pitch_ready' || production.pitchVersion !== input.pitchVersion) return { sent: 0 };
  const pitch = pitchRow.pitch as Pitch;
  const markdown = pitchMarkdown(pitch);
  const intent = (production.brief as { intent: string }).intent;
  let sent = 0;
  const failures: string[] = [];
  for (const { account } of production.workspace.memberships) {
    if (deps.signal?.aborted) break;
    deps.heartbeat?.();
    const email = account.email.toLowerCase();
    const key = { productionId: input.productionId, pitchVersion: input.pitchVersion, email };
    if (await takenOver(db, input, deps.attempt)) break;
    if (!(await claim(db, key, deps.attempt))) continue;
    const mintedAt = deps.now?.() ?? new Date();
    const links = mintActionLinks({ secret: deps.linkSecret, appUrl: deps.appUrl }, {
      productionId: input.productionId, pitchVersion: input.pitchVersion, recipient: { kind: 'email', email }, mintedAt,
    });
    const message = pitchEmail({
      workspaceName: production.workspace.name, intent, pitch, pitchMarkdown: markdown,
      pageUrl: productionPageUrl(deps.appUrl, production.id), links, expiresAt: linkExpiry(mintedAt),
    });
    const id = `pitch-${input.productionId}-v${input.pitchVersion}-${createHash('sha256').update(email).digest('hex').slice(0, 16)}`;
    const beating = deps.heartbeat && setInterval(deps.heartbeat, deps.heartbeatEveryMs ?? 20_000);
    try {
      await deps.mailer.send({ id, to: email, ...message });
    } catch (error) {
      const reason = (error as Error).message;
      // An address refused for good is recorded so and left; anything else is tried again.
      const refused = error instanceof RecipientRefused;
      await db.linkEmail.updateMany({ where: { ...key, attempt: deps.attempt }, data: { status: refused ? 'refused' : 'failed', error: reason.slice(0, 1000) } });
      if (!refused) failures.push(`${email}: ${reason}`);
      continue;
    } finally {
      clearInterval(beating);
    }
    await recordSent(db, key, deps.attempt);
    sent += 1;
  }
  // Failed recipients are tried again by the activity's retry; sent ones are not.
  if (failures.length) throw new Error(`Link e-mails failed for ${failures.join('; ')}`);
  return { sent };
}

type Recipient = { productionId: string; pitchVersion: number; email: string };

/**
 * Claims a recipient for this try: a new row, one whose send failed, or one an earlier try left
 * `sending`. Temporal starts a try once the one before has ended or timed out, so that claim is
 * abandoned (a timed-out try still running stops at its next claim: `takenOver`).
 */
async function claim(db: Db, key: Recipient, attempt: number): Promise<boolean> {
  const created = await db.linkEmail.createMany({ data: [{ ...key, status: 'sending', attempt }], skipDuplicates: true });
  if (created.count) return true;
  const retaken = await db.linkEmail.updateMany({
    where: { ...key, OR: [{ status: 'failed' }, { status: 'sending', attempt: { lt: attempt } }] },
    data: { status: 'sending', attempt },
  });
  return retaken.count > 0;
}

/** Whether a later try has claimed a recipient of this pitch version: this one was given up on. */
async function takenOver(db: Db, pitch: { productionId: string; pitchVersion: number }, attempt: number): Promise<boolean> {
  return (await db.linkEmail.count({ where: { ...pitch, attempt: { gt: attempt } } })) > 0;
}

/**
 * Records a send, unless a later try has taken the recipient over, trying a few times over a
 * database's short stumble: once this try has ended, an unrecorded send is made again by the next.
 */
async function recordSent(db: Db, key: Recipient, attempt: number): Promise<void> {
  for (let tries = 1; ; tries += 1) {
    try {
      await db.linkEmail.updateMany({ where: { ...key, attempt }, data: { status: 'sent', sentAt: new Date(), error: null } });
      return;
    } catch (error) {
      if (tries === RECORD_TRIES) throw error;
      await sleep(RECORD_RETRY_MS);
    }
  }
}
