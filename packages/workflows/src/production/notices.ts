import { patched } from '@temporalio/workflow';
import type { Activities } from './activities.ts';
import type { ProductionState } from './state.ts';

/** Owners and editors are e-mailed when a production is delivered or fails (before, only webhooks told). */
export const NOTICE_EMAILS_PATCH = 'notice-emails';

/**
 * E-mails the notice of how the production ended, in the background: the workflow ends once it
 * has settled (sent, or given up on after a day of a mail server away; the page says it all the same).
 * Decided here, once, as the ending's step applied: a retried step never decides it twice.
 */
export function emailNotice(state: ProductionState, { notices }: Activities, productionId: string, kind: 'video_delivered' | 'production_failed') {
  if (!patched(NOTICE_EMAILS_PATCH)) return;
  state.background.push(notices.emailNotice({ productionId, kind }).catch(() => {}));
}
