import type { Pitch } from '@vp/contracts';
import type { ActionLinks } from './urls.ts';

export type PitchEmailInput = {
  workspaceName: string;
  intent: string;
  pitch: Pitch;
  pitchMarkdown: string;
  pageUrl: string;
  links: ActionLinks;
  expiresAt: Date;
};

/** The e-mail that brings a pitch to an owner or editor, with login-free links to answer it. */
export function pitchEmail(input: PitchEmailInput): { subject: string; text: string; html: string } {
  const { pitch, links } = input;
  const subject = `Pitch ready: ${pitch.title}`;
  const expires = input.expiresAt.toISOString().slice(0, 16).replace('T', ' ');
  const text = [
    `A pitch is ready in ${input.workspaceName} for “${input.intent}”.`,
    '',
    `Greenlight it (${pitch.estimatedCredits} credits): ${links.greenlight}`,
    `Send comments:  ${links.comment}`,
    `Decline it:     ${links.decline}`,
    '',
    `These links work without signing in until ${expires} UTC, and only for pitch version ${pitch.version}.`,
    `The production: ${input.pageUrl}`,
    '',
    '---',
    '',
    input.pitchMarkdown,
  ].join('\n');
  const button = (href: string, label: string) => `<a href="${escapeHtml(href)}" style="margin-right:16px">${label}</a>`;
  const html = [
    `<p>A pitch is ready in <b>${escapeHtml(input.workspaceName)}</b> for “${escapeHtml(input.intent)}”.</p>`,
    `<h2>${escapeHtml(pitch.title)}</h2>`,
    `<p>${escapeHtml(pitch.summary)}</p>`,
    `<p>${button(links.greenlight, `Greenlight (${pitch.estimatedCredits} credits)`)}${button(links.comment, 'Send comments')}${button(links.decline, 'Decline')}</p>`,
    `<p style="color:#666">These links work without signing in until ${expires} UTC, and only for pitch version ${pitch.version}. <a href="${escapeHtml(input.pageUrl)}">Open the production</a>.</p>`,
    `<pre style="white-space:pre-wrap">${escapeHtml(input.pitchMarkdown)}</pre>`,
  ].join('\n');
  return { subject, text, html };
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
