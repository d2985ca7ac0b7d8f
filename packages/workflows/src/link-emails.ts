import { proxyActivities } from '@temporalio/workflow';
import type { LinkEmailsInput, WebhookActivities } from './webhook-definitions.ts';

/**
 * No longer started: pitch e-mails are an activity of the production workflow now. Kept so that
 * the runs started before finish (a day at most); remove it once none is left.
 *
 * E-mails one pitch version's greenlight links to its owners and editors; retried while the mail
 * server is away, every 10 minutes at most, for a day (the links live 7). A try after the pitch
 * was answered sends nothing. A try reports each recipient: one that goes silent for 2 minutes
 * (a worker killed) is retried, while a large workspace's list may take its time.
 */
export async function linkEmailsWorkflow(input: LinkEmailsInput): Promise<number> {
  const { sendLinkEmails } = proxyActivities<WebhookActivities>({
    startToCloseTimeout: '30 minutes',
    heartbeatTimeout: '2 minutes',
    scheduleToCloseTimeout: '1 day',
    retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes' },
  });
  return (await sendLinkEmails(input)).sent;
}
