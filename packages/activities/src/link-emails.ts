import type { Pitch } from '@vp/contracts';
import type { Db } from '@vp/db';
import { linkExpiry, mintActionLinks, pitchEmail } from '@vp/links';
import type { Mailer } from '@vp/mail';
import { pitchMarkdown } from '@vp/pitch';
import { productionPageUrl } from '@vp/productions';
import { messageIdFor, sendLedger, sendToEach } from './send-each.ts';

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
 * E-mails one pitch version's greenlight links to each owner and editor, each once across
 * retries (claimed in `link_emails`: see `sendToEach`). Nothing is sent once the pitch was answered.
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
  return sendToEach({
    ...deps, what: 'Link e-mails',
    ledger: sendLedger(deps.db.linkEmail),
    message: { productionId: input.productionId, pitchVersion: input.pitchVersion },
    recipients: production.workspace.memberships.map(({ account }) => account.email.toLowerCase()),
    send: async (email) => {
      const mintedAt = deps.now?.() ?? new Date();
      const links = mintActionLinks({ secret: deps.linkSecret, appUrl: deps.appUrl }, {
        productionId: input.productionId, pitchVersion: input.pitchVersion, recipient: { kind: 'email', email }, mintedAt,
      });
      const message = pitchEmail({
        workspaceName: production.workspace.name, intent, pitch, pitchMarkdown: markdown,
        pageUrl: productionPageUrl(deps.appUrl, production.id), links, expiresAt: linkExpiry(mintedAt),
      });
      await deps.mailer.send({ id: messageIdFor(`pitch-${input.productionId}-v${input.pitchVersion}`, email), to: email, ...message });
    },
  });
}
