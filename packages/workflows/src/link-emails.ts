import { proxyActivities } from '@temporalio/workflow';
import type { LinkEmailsInput, WebhookActivities } from './webhook-definitions.ts';

/**
 * E-mails one pitch version's greenlight links to its owners and editors; retried while the mail
 * server is away, every 10 minutes at most, for a day (the links live 7). A try after the pitch
 * was answered sends nothing.
 */
export async function linkEmailsWorkflow(input: LinkEmailsInput): Promise<number> {
  const { sendLinkEmails } = proxyActivities<WebhookActivities>({
    startToCloseTimeout: '2 minutes',
    scheduleToCloseTimeout: '1 day',
    retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes' },
  });
  return (await sendLinkEmails(input)).sent;
}
