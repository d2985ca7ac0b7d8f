import { Context } from '@temporalio/activity';
import type { Db } from '@vp/db';
import type { Mailer } from '@vp/mail';
import type { ProductionActivities } from '@vp/workflows/definitions';
import { sendLinkEmails } from '../link-emails.ts';
import { sendNoticeEmails } from '../notice-emails.ts';

export type PitchEmailDeps = {
  db: Db;
  /** Null: no mail is sent (a deployment without SMTP_URL), or greenlight links are switched off. */
  mailer: Mailer | null;
  linkSecret: string;
  appUrl: string;
  /** Mail for notices (delivered, failed): sent whether or not greenlight links are switched on. Null: none. */
  noticeMailer?: Mailer | null;
};

/**
 * The pitch e-mail, with its greenlight links, to each owner and editor: once per version and
 * recipient; and the notices (video delivered, production failed): once per event and recipient.
 */
export function pitchEmails(deps: PitchEmailDeps): Pick<ProductionActivities, 'emailPitchLinks' | 'emailNotice'> {
  return {
    async emailPitchLinks(input) {
      const { mailer } = deps;
      if (!mailer) return { sent: 0 };
      const context = Context.current();
      return sendLinkEmails({
        db: deps.db, mailer, linkSecret: deps.linkSecret, appUrl: deps.appUrl,
        attempt: context.info.attempt, heartbeat: () => context.heartbeat(), signal: context.cancellationSignal,
      }, input);
    },

    async emailNotice(input) {
      const mailer = deps.noticeMailer;
      if (!mailer) return { sent: 0 };
      const context = Context.current();
      return sendNoticeEmails({ db: deps.db, mailer, appUrl: deps.appUrl, attempt: context.info.attempt, heartbeat: () => context.heartbeat() }, input);
    },
  };
}
