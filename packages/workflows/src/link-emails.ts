import { proxyActivities } from '@temporalio/workflow';
import type { LinkEmailsInput, WebhookActivities } from './webhook-definitions.ts';

/** E-mails one pitch version's greenlight links to its owners and editors; retried while the mail server is away. */
export async function linkEmailsWorkflow(input: LinkEmailsInput): Promise<number> {
  const { sendLinkEmails } = proxyActivities<WebhookActivities>({
    startToCloseTimeout: '2 minutes',
    retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes', maximumAttempts: 10 },
  });
  return (await sendLinkEmails(input)).sent;
}
