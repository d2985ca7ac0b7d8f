/** One message to one recipient. `id` makes the Message-ID, so a resend can be recognised downstream. */
export type MailMessage = { id: string; to: string; subject: string; text: string; html?: string };

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
