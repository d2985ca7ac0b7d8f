import type { MailMessage } from '@vp/mail';

const SERVICE = 'Video Production Service';

/** Where a sign-in link leads: a page that asks before it signs in (mail scanners open links too). */
export const signInLinkUrl = (appUrl: string, token: string) => `${appUrl}/sign-in/link?token=${encodeURIComponent(token)}`;

export function signInLinkMail(input: { id: string; to: string; url: string; minutes: number }): MailMessage {
  return {
    id: `sign-in-${input.id}`,
    to: input.to,
    subject: `Sign in to ${SERVICE}`,
    text: [
      `Open this link to sign in to ${SERVICE}:`,
      '',
      input.url,
      '',
      `It works once, for ${input.minutes} minutes. If you did not ask to sign in, ignore this e-mail: nothing happens without the link.`,
    ].join('\n'),
  };
}

/** Sent instead of a link when sign-up is by invitation and nothing invites the address: the asker sees the same page either way. */
export function noAccountMail(input: { id: string; to: string; appUrl: string }): MailMessage {
  return {
    id: `sign-in-${input.id}`,
    to: input.to,
    subject: `Sign in to ${SERVICE}`,
    text: [
      `Someone asked to sign in to ${SERVICE} (${input.appUrl}) with this address, but no account uses it, and`,
      'accounts here are made by invitation. Ask an owner of your team\'s workspace to invite this address.',
      '',
      'If it was not you, ignore this e-mail.',
    ].join('\n'),
  };
}

export function invitationMail(input: { id: string; to: string; url: string; workspaceName: string; inviterName: string; role: string; days: number }): MailMessage {
  return {
    id: `invitation-${input.id}`,
    to: input.to,
    subject: `${input.inviterName} invited you to ${input.workspaceName}`,
    text: [
      `${input.inviterName} invited you to the workspace "${input.workspaceName}" on ${SERVICE}, as ${input.role === 'editor' ? 'an editor' : `${input.role === 'owner' ? 'an owner' : 'a viewer'}`}.`,
      '',
      'Open this link to sign in and join:',
      '',
      input.url,
      '',
      `The link works once, for ${input.days} days. After that, sign in with this address on the sign-in page to join.`,
    ].join('\n'),
  };
}
