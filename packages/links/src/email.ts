import MarkdownIt from 'markdown-it';
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

/**
 * The pitch's markdown as e-mail HTML. Its text comes from the brief, so raw HTML is escaped,
 * and links and images are not made: the only links in the message are ours, and nothing loads.
 */
const markdown = new MarkdownIt({ html: false, linkify: false }).disable(['link', 'image', 'autolink']);
/** Headings sized for a message, inline, since mail clients drop stylesheets. */
const HEADING: Record<string, string> = { h1: 'font-size:22px;line-height:1.3;margin:0 0 8px', h2: 'font-size:18px;margin:24px 0 8px' };
markdown.renderer.rules.heading_open = (tokens, i, options, _env, self) => {
  const style = HEADING[tokens[i]!.tag];
  if (style) tokens[i]!.attrSet('style', style);
  return self.renderToken(tokens, i, options);
};

const FONT = "font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif";
const BUTTON = 'display:inline-block;margin:0 8px 8px 0;padding:10px 16px;border-radius:8px;font-weight:600;text-decoration:none';
const PRIMARY = `${BUTTON};background:#4f46e5;color:#ffffff;border:1px solid #4f46e5`;
const SECONDARY = `${BUTTON};background:#ffffff;color:#16181d;border:1px solid #c9ccd4`;

/** The e-mail that brings a pitch to an owner or editor, with login-free links to answer it. */
export function pitchEmail(input: PitchEmailInput): { subject: string; text: string; html: string } {
  const { pitch, links } = input;
  const subject = `Pitch ready: ${pitch.title}`;
  const expires = input.expiresAt.toISOString().slice(0, 16).replace('T', ' ');
  const validity = `These links work without signing in until ${expires} UTC, and only for pitch version ${pitch.version}.`;
  const text = [
    `A pitch is ready in ${input.workspaceName} for “${input.intent}”.`,
    '',
    `Greenlight it (${pitch.estimatedCredits} credits): ${links.greenlight}`,
    `Send comments:  ${links.comment}`,
    `Decline it:     ${links.decline}`,
    '',
    validity,
    `The production: ${input.pageUrl}`,
    ...storyboardText(pitch),
    '',
    '---',
    '',
    input.pitchMarkdown,
  ].join('\n');
  const button = (href: string, label: string, style: string) => `<a href="${escapeHtml(href)}" style="${style}">${escapeHtml(label)}</a>`;
  const html = [
    `<div style="${FONT};max-width:640px;margin:0 auto;padding:16px;color:#16181d;font-size:16px;line-height:1.5">`,
    `<p>A pitch is ready in <b>${escapeHtml(input.workspaceName)}</b> for “${escapeHtml(input.intent)}”.</p>`,
    `<p>${button(links.greenlight, `Greenlight for ${pitch.estimatedCredits} credits`, PRIMARY)}${button(links.comment, 'Send comments', SECONDARY)}${button(links.decline, 'Decline', SECONDARY)}</p>`,
    `<p style="color:#5b6170;font-size:14px">${escapeHtml(validity)} <a href="${escapeHtml(input.pageUrl)}" style="color:#4f46e5">Open the production</a>.</p>`,
    storyboardHtml(pitch),
    '<hr style="border:0;border-top:1px solid #e3e5ea;margin:24px 0">',
    markdown.render(input.pitchMarkdown),
    '</div>',
  ].join('\n');
  return { subject, text, html };
}

const shotsWithStills = (pitch: Pitch) => [...pitch.shots].sort((a, b) => a.index - b.index).filter((shot) => shot.previewUrl);

/** The storyboard's stills, as addresses: the frames the video will show at each shot's key moment. */
function storyboardText(pitch: Pitch): string[] {
  const shots = shotsWithStills(pitch);
  return shots.length ? ['', 'The storyboard (one still per shot):', ...shots.map((shot) => `  Shot ${shot.index + 1}, ${shot.title}: ${shot.previewUrl}`)] : [];
}

/** The storyboard's stills in a row that wraps on a phone: ours, signed, the only pictures the message loads. */
function storyboardHtml(pitch: Pitch): string {
  const shots = shotsWithStills(pitch);
  if (!shots.length) return '';
  const still = (shot: Pitch['shots'][number]) => `<img src="${escapeHtml(shot.previewUrl!)}" alt="${escapeHtml(`Shot ${shot.index + 1}: ${shot.title}`)}" width="180" style="width:180px;max-width:100%;height:auto;margin:0 8px 8px 0;border-radius:6px;border:1px solid #e3e5ea;vertical-align:top">`;
  return `<p style="margin:16px 0 0">${shots.map(still).join('')}</p>`;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
