/** One message to one recipient. `id` makes the Message-ID, so a resend can be recognised downstream. */
export type MailMessage = { id: string; to: string; subject: string; text: string; html?: string };

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** The mail server refused the recipient's address for good (an SMTP 5xx to RCPT TO): sending again will not help. */
export class RecipientRefused extends Error {
  override name = 'RecipientRefused';
}
