import { createHash } from 'node:crypto';
import type { Pitch } from '@vp/contracts';
import type { Db } from '@vp/db';
import { linkExpiry, mintActionLinks, pitchEmail } from '@vp/links';
import type { Mailer } from '@vp/mail';
import { pitchMarkdown } from '@vp/pitch';
import { productionPageUrl } from '@vp/productions';

export type LinkEmailDeps = { db: Db; mailer: Mailer; linkSecret: string; appUrl: string; now?: () => Date };

/**
 * E-mails one pitch version's greenlight links to each owner and editor, once each: a
 * recipient is claimed in `link_emails` before sending, so a retry sends only what failed and
 * never a second copy. Nothing is sent once the pitch was answered.
 */
export async function sendLinkEmails(deps: LinkEmailDeps, input: { productionId: string; pitchVersion: number }): Promise<{ sent: number }> {
  const { db } = deps;
  const production = await db.production.findUnique({
    where: { id: input.productionId },
    include: {
      pitches: { where: { version: input.pitchVersion } },
      workspace: { include: { memberships: { where: { role: { in: ['owner', 'editor'] } }, include: { account: true } } } },
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
    const email = account.email.toLowerCase();
    const key = { productionId: input.productionId, pitchVersion: input.pitchVersion, email };
    if (!(await claim(db, key))) continue;
    const mintedAt = deps.now?.() ?? new Date();
    const links = mintActionLinks({ secret: deps.linkSecret, appUrl: deps.appUrl }, {
      productionId: input.productionId, pitchVersion: input.pitchVersion, recipient: { kind: 'email', email }, mintedAt,
    });
    const message = pitchEmail({
      workspaceName: production.workspace.name, intent, pitch, pitchMarkdown: markdown,
      pageUrl: productionPageUrl(deps.appUrl, production.id), links, expiresAt: linkExpiry(mintedAt),
    });
    const id = `pitch-${input.productionId}-v${input.pitchVersion}-${createHash('sha256').update(email).digest('hex').slice(0, 16)}`;
    try {
      await deps.mailer.send({ id, to: email, ...message });
    } catch (error) {
      const reason = (error as Error).message;
      await db.linkEmail.update({ where: { productionId_pitchVersion_email: key }, data: { status: 'failed', error: reason.slice(0, 1000) } });
      failures.push(`${email}: ${reason}`);
      continue;
    }
    // Sent. Failing to record it fails the try, but the recipient stays claimed: never sent twice.
    await db.linkEmail.update({ where: { productionId_pitchVersion_email: key }, data: { status: 'sent', sentAt: new Date(), error: null } });
    sent += 1;
  }
  // Failed recipients are tried again by the activity's retry; sent ones are not.
  if (failures.length) throw new Error(`Link e-mails failed for ${failures.join('; ')}`);
  return { sent };
}

/** Claims a recipient: a new row, or one whose earlier send failed. A row left `sending` (a crash mid-send) is never sent again. */
async function claim(db: Db, key: { productionId: string; pitchVersion: number; email: string }): Promise<boolean> {
  const created = await db.linkEmail.createMany({ data: [{ ...key, status: 'sending' }], skipDuplicates: true });
  if (created.count) return true;
  const retried = await db.linkEmail.updateMany({ where: { ...key, status: 'failed' }, data: { status: 'sending' } });
  return retried.count > 0;
}
